package org.hpf.read;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.CorruptArchiveException;
import org.hpf.FileNotInArchiveException;
import org.hpf.InvalidNameException;
import org.hpf.NoCommittedGenerationException;
import org.hpf.format.ArchiveId;
import org.hpf.format.ArchiveLayout;
import org.hpf.format.Codec;
import org.hpf.format.DirectoryFile;
import org.hpf.format.DirectoryFile.BucketRef;
import org.hpf.format.EntryHeader;
import org.hpf.format.FileHeader;
import org.hpf.format.FileKind;
import org.hpf.format.IndexRecord;
import org.hpf.format.Manifest;
import org.hpf.format.MemberNames;
import org.hpf.format.NameHash;
import org.hpf.format.NamesFileReader;
import org.hpf.format.SealedFile;
import org.hpf.io.ArchiveStorage;
import org.hpf.io.HadoopStorage;

/**
 * Reads one generation of an archive. Opening reads the newest manifest and its directory; a
 * {@link #get} then costs one function evaluation, one positioned read of the 40-byte record and
 * one positioned read of the entry (plus, the first time a bucket is used, one read of its
 * function). Thread-safe: any number of threads may read concurrently.
 */
public final class HpfReader implements AutoCloseable {
  private final ArchiveStorage storage;
  private final ReaderOptions options;
  private final Manifest manifest;
  private final DirectoryFile directory;
  private final PartFiles parts;
  private final ConcurrentHashMap<Integer, LoadedBucket> buckets = new ConcurrentHashMap<>();

  private HpfReader(ArchiveStorage storage, ReaderOptions options, Manifest manifest,
      DirectoryFile directory) {
    this.storage = storage;
    this.options = options;
    this.manifest = manifest;
    this.directory = directory;
    this.parts = new PartFiles(storage, manifest);
  }

  public static HpfReader open(Configuration conf, Path archive) throws IOException {
    return open(archive.getFileSystem(conf), archive, ReaderOptions.defaults());
  }

  public static HpfReader open(FileSystem fs, Path archive, ReaderOptions options)
      throws IOException {
    return open(new HadoopStorage(fs, archive, (short) 0), options);
  }

  public static HpfReader open(ArchiveStorage storage, ReaderOptions options) throws IOException {
    long generation = newestGeneration(storage);
    String manifestName = Manifest.fileName(generation);
    ByteBuffer body = SealedFile.read(storage, manifestName, FileKind.MANIFEST, null);
    ArchiveId id = FileHeader.check(ByteBuffer.wrap(body.array()),
        storage.location(manifestName), FileKind.MANIFEST, null);
    Manifest manifest = Manifest.parse(id, body, storage.location(manifestName));
    if (manifest.generation() != generation) {
      throw new CorruptArchiveException(storage.location(manifestName), FileHeader.SIZE,
          "manifest says generation " + manifest.generation());
    }
    DirectoryFile directory = DirectoryFile.parse(
        SealedFile.read(storage, manifest.directoryFile(), FileKind.DIRECTORY, id),
        storage.location(manifest.directoryFile()));
    return new HpfReader(storage, options, manifest, directory);
  }

  /** The largest committed generation, from the names in {@code _manifests/}. */
  static long newestGeneration(ArchiveStorage storage) throws IOException {
    long newest = -1;
    for (String name : storage.list(Manifest.DIR)) {
      newest = Math.max(newest, Manifest.generationOf(name));
    }
    if (newest < 0) {
      boolean journal = storage.list("").stream()
          .anyMatch(n -> n.startsWith(ArchiveLayout.JOURNAL_PREFIX));
      throw new NoCommittedGenerationException(storage.location(), journal);
    }
    return newest;
  }

  public Manifest manifest() {
    return manifest;
  }

  public DirectoryFile directory() {
    return directory;
  }

  public String location() {
    return storage.location();
  }

  /** The member's bytes; FileNotInArchiveException if absent. At most 2 GiB: else use open(). */
  public byte[] get(String name) throws IOException {
    IndexRecord record = locate(name);
    return EntryReader.readBytes(parts.partOf(record, indexFileOf(name)), record, name);
  }

  /** A stream over the member's bytes (checked against its checksum when fully read). */
  public InputStream open(String name) throws IOException {
    IndexRecord record = locate(name);
    if (record.codec() != Codec.RAW || record.originalLength() <= (1 << 20)) {
      return new ByteArrayInputStream(
          EntryReader.readBytes(parts.partOf(record, indexFileOf(name)), record, name));
    }
    var part = parts.partOf(record, indexFileOf(name));
    EntryHeader header = EntryReader.readHeader(part, record, name);
    return EntryReader.openRaw(part, record, header);
  }

  public boolean exists(String name) throws IOException {
    return find(name) != null;
  }

  /** Length, stored length, modification time and codec of a member. */
  public MemberStatus stat(String name) throws IOException {
    IndexRecord record = locate(name);
    EntryHeader header = EntryReader.readHeader(parts.partOf(record, indexFileOf(name)), record,
        name);
    return new MemberStatus(name, header.originalLength(), header.storedLength(),
        header.mtimeMillis(), header.codec(), record.part(), record.offset());
  }

  /**
   * Every name, in increasing UTF-8 byte order, streamed from the names file one checked block at
   * a time. Close the stream when done.
   */
  public Stream<String> list() throws IOException {
    String file = storage.location(manifest.namesFile());
    NamesFileReader names =
        new NamesFileReader(storage.open(manifest.namesFile()), file, manifest.archiveId());
    return StreamSupport.stream(Spliterators.spliteratorUnknownSize(names,
        Spliterator.ORDERED | Spliterator.NONNULL | Spliterator.DISTINCT), false)
        .onClose(() -> {
          try {
            names.close();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  /** Names whose record is found (for tests and verify); not a listing. */
  List<BucketRef> bucketRefs() {
    return directory.buckets();
  }

  private IndexRecord locate(String name) throws IOException {
    IndexRecord record = find(name);
    if (record == null) {
      throw new FileNotInArchiveException(storage.location(), name);
    }
    return record;
  }

  private IndexRecord find(String name) throws IOException {
    try {
      MemberNames.check(name);
    } catch (InvalidNameException e) {
      // No member has such a name. Hashing it anyway could find a member's record: a lone
      // surrogate such as U+D800 encodes to UTF-8 as '?', so it has the hash of the member "?".
      return null;
    }
    NameHash hash = options.hasher().hash(name);
    int b = directory.slots()[DirectoryFile.slotOf(hash, directory.globalDepth())];
    if (directory.buckets().get(b).recordCount() == 0) {
      return null;
    }
    return bucket(b).find(hash);
  }

  private String indexFileOf(String name) {
    return storage.location(directory.bucketOf(options.hasher().hash(name)).indexFile());
  }

  private LoadedBucket bucket(int b) throws IOException {
    LoadedBucket loaded = buckets.get(b);
    if (loaded != null) {
      return loaded;
    }
    synchronized (buckets) {
      loaded = buckets.get(b);
      if (loaded == null) {
        loaded = LoadedBucket.load(storage, manifest.archiveId(), directory.buckets().get(b));
        buckets.put(b, loaded);
      }
      return loaded;
    }
  }

  @Override
  public void close() throws IOException {
    try {
      parts.close();
    } finally {
      for (LoadedBucket bucket : buckets.values()) {
        bucket.close();
      }
      buckets.clear();
      storage.close();
    }
  }
}
