package org.hpf.internal.read;

import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.CorruptArchiveException;
import org.hpf.FileNotInArchiveException;
import org.hpf.HpfException;
import org.hpf.InvalidNameException;
import org.hpf.NoCommittedGenerationException;
import org.hpf.StaleGenerationException;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.Codec;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.EntryLocation;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.format.FileKind;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.Manifest.NamesSegment;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.MemberNames;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.format.NameHash;
import org.hpf.internal.format.NameHasher;
import org.hpf.internal.format.NamesBlocks;
import org.hpf.internal.format.NamesFileReader;
import org.hpf.internal.format.NamesMerge;
import org.hpf.internal.format.SealedFile;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.ForwardingInput;

/**
 * Reads one generation of an archive. Opening reads the newest manifest and its directory; a
 * {@link #get} then costs one function evaluation, one positioned read of the 40-byte record and
 * one positioned read of the entry (plus, the first time a bucket is used, one read of its
 * function). Thread-safe: any number of threads may read concurrently.
 */
public final class HpfReader implements AutoCloseable {
  /** Members up to this size (and every compressed one) are read and checked whole. */
  private static final int WHOLE_READ_LIMIT = 1 << 20;
  /** Reads of the newest manifest, each after a newer generation retired the last one. */
  private static final int MANIFEST_ATTEMPTS = 5;

  private final ArchiveStorage storage;
  private final ReaderOptions options;
  private final Manifest manifest;
  private final List<DirectoryFile> layers;
  private final PartFiles parts;
  /** Loaded buckets by layer and bucket number: different buckets load in parallel. */
  private final LoadOnce<Long, LoadedBucket> buckets = new LoadOnce<>();
  private final RecordCache recordCache;
  /** Whether the generation's index files together fit {@link ReaderOptions#indexMemoryBytes}. */
  private final boolean indexFitsMemory;
  /** Where the records this reader holds whole count: its own, or one readers share. */
  private final IndexMemory indexMemory;
  /** The archive's hash algorithm (or a test's hasher). */
  private final NameHasher hasher;
  /** What listings learned of each names segment's blocks, by file name. */
  private final Map<String, NamesBlocks> namesBlocks = new HashMap<>();
  /** Buckets whose function could not be used, read by searching their records. */
  private final UnreadableFunctions unreadableFunctions = new UnreadableFunctions();
  /** The names segments, each opened once on first listing and shared, as the parts are. */
  private final LoadOnce<String, ArchiveInput> namesFiles = new LoadOnce<>();

  /** A record and the index file it came from (for messages). */
  private record Found(IndexRecord record, String indexFile) {}

  private HpfReader(ArchiveStorage storage, ReaderOptions options, Manifest manifest,
      List<DirectoryFile> layers) {
    this.storage = storage;
    this.options = options;
    this.manifest = manifest;
    this.layers = List.copyOf(layers);
    this.parts = new PartFiles(storage, this::openGenerationFile, manifest);
    this.recordCache = RecordCache.ofBytes(options.recordCacheBytes());
    this.indexFitsMemory = indexBytes(layers) <= options.indexMemoryBytes();
    this.indexMemory = options.sharedIndexMemory() != null ? options.sharedIndexMemory()
        : new IndexMemory(options.indexMemoryBytes());
    this.hasher = options.hasher() != null ? options.hasher()
        : NameHasher.forAlgorithm(manifest.hashAlgorithm());
    for (NamesSegment segment : manifest.namesSegments()) {
      namesBlocks.put(segment.file(), new NamesBlocks());
    }
  }

  public static HpfReader open(Configuration conf, Path archive) throws IOException {
    return open(archive.getFileSystem(conf), archive, ReaderOptions.defaults());
  }

  public static HpfReader open(FileSystem fs, Path archive, ReaderOptions options)
      throws IOException {
    return open(HdfsIntegration.storage(fs, archive), options);
  }

  public static HpfReader open(ArchiveStorage storage, ReaderOptions options) throws IOException {
    Manifest manifest = newestManifest(storage);
    List<DirectoryFile> directories;
    try {
      directories = manifest.readDirectories(storage);
    } catch (FileNotFoundException e) {
      throw missing(storage, manifest, e.getMessage(), e);
    }
    HpfReader reader = new HpfReader(storage, options, manifest, directories);
    if (options.openAllFiles()) {
      try {
        reader.openAllFiles();
      } catch (IOException | RuntimeException e) {
        reader.close();
        throw e;
      }
    }
    return reader;
  }

  private static long indexBytes(List<DirectoryFile> layers) {
    long bytes = 0;
    for (DirectoryFile layer : layers) {
      for (BucketRef ref : layer.buckets()) {
        bytes += ref.recordCount() > 0 ? ref.indexFileLength() : 0;
      }
    }
    return bytes;
  }

  /** Loads every bucket and opens every part now (ReaderOptions#openAllFiles). */
  private void openAllFiles() throws IOException {
    for (int layer = 0; layer < layers.size(); layer++) {
      List<BucketRef> refs = layers.get(layer).buckets();
      for (int b = 0; b < refs.size(); b++) {
        if (refs.get(b).recordCount() > 0) {
          bucket(layer, b, refs.get(b));
        }
      }
    }
    parts.openAll();
  }

  /**
   * Where the member's bytes are: the blocks of its part file that hold its entry, with hosts,
   * cached hosts and storage types, offsets relative to the entry's first byte (an entry is a
   * 36-byte header and the name, the stored bytes, and a 4-byte checksum), so that a scheduler
   * can run work near the data, as with HAR. On HDFS this asks the NameNode nothing
   * once the part is open; on other file systems it asks {@code getFileBlockLocations}.
   */
  public BlockLocation[] blockLocations(String name) throws IOException {
    Found found = locate(name);
    ArchiveInput part = parts.partOf(found.record, found.indexFile, name);
    return HdfsIntegration.blockLocations(storage, part, found.record.offset(),
        found.record.entryLength());
  }

  /**
   * A reader of the newest generation if a writer committed one since this reader was opened,
   * else null. This reader stays usable (until its generation is no longer kept).
   */
  public HpfReader reopenIfChanged() throws IOException {
    if (newestGeneration(storage) == manifest.generation()) {
      return null;
    }
    return open(storage, options);
  }

  /** Heap the index records held in memory take ({@link ReaderOptions#indexMemoryBytes}). */
  public long heldIndexBytes() {
    long bytes = 0;
    for (LoadedBucket bucket : buckets.loaded()) {
      bytes += bucket.heldRecordBytes();
    }
    return bytes;
  }

  /** What the record cache ({@link ReaderOptions#recordCacheBytes}) holds and has served. */
  public RecordCacheStats recordCacheStats() {
    return recordCache.stats();
  }

  public long generation() {
    return manifest.generation();
  }

  /**
   * The manifest of the newest generation. Retention removes a manifest only once newer ones
   * are committed, so one that is gone by the time it is read (the reader was slow between the
   * listing and the read) means there is a newer one: list again.
   */
  private static Manifest newestManifest(ArchiveStorage storage) throws IOException {
    long newest = newestGeneration(storage);
    for (int attempt = 1; ; attempt++) {
      try {
        return Manifest.read(storage, newest);
      } catch (FileNotFoundException e) {
        long now = newestGeneration(storage);
        if (now <= newest || attempt == MANIFEST_ATTEMPTS) {
          throw e;
        }
        newest = now;
      }
    }
  }

  /** The largest committed generation, from the names in {@code _manifests/}. */
  public static long newestGeneration(ArchiveStorage storage) throws IOException {
    long newest = -1;
    List<String> manifests;
    try {
      manifests = storage.list(Manifest.DIR);
    } catch (IOException e) {
      // HDFS refuses to list below a file ("is not a directory") as it refuses a user.
      if (storage.rootIsFile()) {
        throw NoCommittedGenerationException.aFile(storage.location());
      }
      throw e;
    }
    for (String name : manifests) {
      newest = Math.max(newest, Manifest.generationOf(name));
    }
    if (newest < 0) {
      if (!storage.rootExists()) {
        // Said as the command line says it, rather than as a directory without a manifest.
        throw new FileNotFoundException("archive does not exist: "
            + storage.location());
      }
      if (storage.rootIsFile()) {
        throw NoCommittedGenerationException.aFile(storage.location());
      }
      List<String> top = storage.list("");
      boolean journal = top.stream().anyMatch(n -> n.startsWith(ArchiveLayout.JOURNAL_PREFIX));
      throw new NoCommittedGenerationException(storage.location(), journal,
          top.contains(Manifest.DIR));
    }
    return newest;
  }

  public Manifest manifest() {
    return manifest;
  }

  /** The directory of the base index layer. */
  public DirectoryFile directory() {
    return layers.get(0);
  }

  /** The directories of all index layers, oldest (the base) first. */
  public List<DirectoryFile> layers() {
    return layers;
  }

  public String location() {
    return storage.location();
  }

  /** The member's bytes; FileNotInArchiveException if absent. At most 2 GiB: else use open(). */
  public byte[] get(String name) throws IOException {
    parts.openAhead();
    Found found = locate(name);
    return bytesOf(found.record, found.indexFile, name);
  }

  /**
   * As {@link #get}, of a member whose record {@code record} a lookup of this reader found
   * ({@link #recordOfHash}, a batch lookup): no second lookup.
   */
  public byte[] get(IndexRecord record, String name) throws IOException {
    return bytesOf(record, storage.location(), name);
  }

  /**
   * As {@link #get(IndexRecord, String)}, of the whole entry {@code record} points to, read
   * already (with entries around it, by a read-ahead): checked as a get checks it.
   */
  public byte[] decode(IndexRecord record, String name, byte[] entry) throws IOException {
    try {
      return EntryReader.decode(entry, record, name, ArchiveLayout.part(record.part())).bytes();
    } catch (EntryReader.OtherName e) {
      throw notAMemberOr(e, name);
    }
  }

  private byte[] bytesOf(IndexRecord record, String indexFile, String name) throws IOException {
    try {
      return EntryReader.readBytes(parts.partOf(record, indexFile, name), record, name,
          storage.location());
    } catch (EntryReader.OtherName e) {
      throw notAMemberOr(e, name);
    }
  }

  /**
   * The open part that holds the entry of member {@code name}, whose record a batch lookup
   * found (a truncated part is reported as a get of that member reports it).
   */
  ArchiveInput partOf(IndexRecord record, String name) throws IOException {
    return parts.partOf(record, storage.location(), name);
  }

  /**
   * A stream over the member's bytes, each checked before it is returned: compressed members
   * and members up to 1 MiB are read and checked whole first; a larger raw member is read in
   * place, a chunk at a time, each checked against its chunk checksum (or, in entries without
   * them, the whole member against its content checksum before its first byte is returned).
   */
  public InputStream open(String name) throws IOException {
    Found found = locate(name);
    return open(found.record, found.indexFile, name);
  }

  /** As {@link #open(String)}, of a member whose record {@code record} a batch lookup found. */
  InputStream open(IndexRecord record, String name) throws IOException {
    return open(record, storage.location(), name);
  }

  private InputStream open(IndexRecord record, String indexFile, String name)
      throws IOException {
    var part = parts.partOf(record, indexFile, name);
    try {
      if (record.codec() != Codec.RAW || record.originalLength() <= WHOLE_READ_LIMIT) {
        return new ByteArrayInputStream(EntryReader.readBytes(part, record, name,
            storage.location()));
      }
      return new CheckedMemberStream(inPlace(part, record, name,
          "'" + name + "' in " + storage.location()));
    } catch (EntryReader.OtherName e) {
      throw notAMemberOr(e, name);
    }
  }

  /**
   * A raw member to read in place, any range at a time, each byte checked before it is handed
   * out ({@link CheckedMember}); its entry header is read and checked against the record and
   * the name first.
   *
   * @param description how errors name the member
   */
  public CheckedMember inPlace(String name, String description) throws IOException {
    parts.openAhead();
    Found found = locate(name);
    IndexRecord record = found.record;
    if (record.codec() != Codec.RAW) {
      throw new IllegalArgumentException("'" + name + "' is compressed: read it with get()");
    }
    try {
      return inPlace(parts.partOf(record, found.indexFile, name), record, name, description);
    } catch (EntryReader.OtherName e) {
      throw notAMemberOr(e, name);
    }
  }

  private CheckedMember inPlace(ArchiveInput part, IndexRecord record, String name,
      String description) throws IOException {
    EntryHeader header = EntryReader.readHeader(part, record, name, storage.location());
    return EntryReader.inPlace(part, record, header, name, description);
  }

  /**
   * As {@link #open}, but no byte is returned before the whole member was checked against its
   * checksums: for output that cannot be taken back (a terminal, a pipe), where a stream that
   * fails midway would already have written the checked bytes before the damage. A member read
   * whole by {@code open} (compressed, or up to 1 MiB) costs nothing more; a larger one is read
   * twice.
   */
  public InputStream openVerified(String name) throws IOException {
    IndexRecord record = locate(name).record;
    if (record.codec() == Codec.RAW && record.originalLength() > WHOLE_READ_LIMIT) {
      try (InputStream check = open(name)) {
        check.transferTo(java.io.OutputStream.nullOutputStream());
      }
    }
    return open(name);
  }

  /** True if the archive has a member of this name (see {@link #record}). */
  public boolean exists(String name) throws IOException {
    return record(name) != null;
  }

  /**
   * Length, stored length, modification time and codec of a member: from its index record alone
   * when the archive's hash cannot be collided on purpose and the record carries the time (index
   * files of version 2), else from its entry's header (one more positioned read).
   */
  public EntryStatus stat(String name) throws IOException {
    Found found = locate(name);
    IndexRecord record = found.record;
    if (answersFromIndex(record)) {
      long stored = record.codec() == Codec.RAW ? record.originalLength()
          : record.entryLength() - EntryHeader.TRAILER_SIZE
              - EntryHeader.size(MemberNames.utf8(name).length);
      return new EntryStatus(name, record.originalLength(), stored, record.mtimeMillis(),
          record.codec(), record.part(), record.offset(), record.access());
    }
    return statOfEntry(name, found);
  }

  /**
   * As {@link #stat}, always from the entry's header, which is read (one positioned read) and
   * checked against the record and the name: for callers about to read the entry in place.
   */
  public EntryStatus checkedStat(String name) throws IOException {
    return statOfEntry(name, locate(name));
  }

  /** As {@link #checkedStat}, of a member whose record {@code record} a batch lookup found. */
  EntryStatus checkedStat(IndexRecord record, String name) throws IOException {
    return statOfEntry(name, new Found(record, storage.location()));
  }

  private EntryStatus statOfEntry(String name, Found found) throws IOException {
    IndexRecord record = found.record;
    EntryHeader header;
    try {
      header = EntryReader.readHeader(parts.partOf(record, found.indexFile, name), record,
          name, storage.location());
    } catch (EntryReader.OtherName e) {
      throw notAMemberOr(e, name);
    }
    return EntryStatus.of(header, record);
  }

  /**
   * The entry the hash led to holds another name: if it has the same hash, {@code name} is
   * simply not a member (the index keys on the hash alone); otherwise the archive is corrupt.
   */
  IOException notAMemberOr(EntryReader.OtherName e, String name) {
    if (hasher.hash(e.stored).equals(hasher.hash(name))) {
      return new FileNotInArchiveException(storage.location(), name);
    }
    return e;
  }

  /**
   * Every name, in increasing UTF-8 byte order, streamed from the names segments (merged, one
   * checked block of each in memory). Close the stream when done.
   */
  public Stream<String> list() throws IOException {
    return listEntries().map(NameEntry::name);
  }

  /** As {@link #list()}, with each member's length and modification time. */
  public Stream<NameEntry> listEntries() throws IOException {
    return listEntriesFrom(null);
  }

  /**
   * The merged entries from the blocks that hold {@code from} on (null: from the first), so
   * that a listing of a directory does not read the names before it again.
   */
  private Stream<NameEntry> listEntriesFrom(String from) throws IOException {
    List<NamesFileReader> readers = new ArrayList<>();
    try {
      for (NamesSegment segment : manifest.namesSegments()) {
        readers.add(new NamesFileReader(namesFile(segment.file()),
            storage.location(segment.file()), manifest.archiveId(),
            namesBlocks.get(segment.file()), from));
      }
    } catch (IOException e) {
      for (NamesFileReader reader : readers) {
        reader.close();
      }
      throw e;
    }
    NamesMerge merge = new NamesMerge(readers, false);
    return StreamSupport.stream(Spliterators.spliteratorUnknownSize(merge,
        Spliterator.ORDERED | Spliterator.NONNULL | Spliterator.DISTINCT), false)
        .onClose(() -> {
          try {
            merge.close();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  /**
   * The entries whose names start with {@code prefix}, in increasing UTF-8 byte order. Names
   * sharing a prefix are contiguous in that order, so this streams the merged segments up to the
   * first such name and stops after the last one: a directory {@code "a/b/"} costs reading the
   * names before and inside it, never the whole tree in memory, and once a listing has read past
   * it, only the names inside it (and blocks read lately cost nothing). Close the stream when
   * done.
   */
  public Stream<NameEntry> listEntries(String prefix) throws IOException {
    Stream<NameEntry> all = listEntriesFrom(prefix);
    if (prefix.isEmpty()) {
      return all;
    }
    return all.dropWhile(e -> MemberNames.compare(e.name(), prefix) < 0)
        .takeWhile(e -> e.name().startsWith(prefix));
  }

  /**
   * The open part file that holds {@code record}'s entry, after checking the entry lies inside
   * it: for positioned reads of a member's bytes in place (a raw member's stored bytes start at
   * {@code record.offset() + EntryHeader.size(nameBytes)}). Owned by this reader: do not close it,
   * and do not use it after the reader is closed.
   */
  public ArchiveInput partInput(IndexRecord record) throws IOException {
    return parts.partOf(record, storage.location());
  }

  /**
   * The member's index record, or null if the archive has no member of this name. The index
   * keys on the 128-bit hash alone: where names with equal hashes can be made (hash algorithm
   * 1), the name stored in the entry the hash leads to is read (one positioned read of its
   * header) and compared, so a name that shares a member's hash gets null; with hash algorithm
   * 2 the record is the answer.
   */
  public IndexRecord record(String name) throws IOException {
    IndexRecord record = recordOfHash(name);
    if (record == null || hasher.collisionResistant()) {
      return record;
    }
    return entryName(record).equals(name) ? record : null;
  }

  /** True if the record alone describes its member (see {@link #stat}). */
  private boolean answersFromIndex(IndexRecord record) {
    return hasher.collisionResistant() && record.hasMtime();
  }

  /**
   * The CRC32C of the member's original bytes, as its entry stores it (one 4-byte positioned
   * read, no byte of the member): {@code record} is a record of this generation.
   */
  public int contentChecksum(IndexRecord record) throws IOException {
    byte[] crc = partInput(record).readFully(
        record.offset() + record.entryLength() - EntryHeader.TRAILER_SIZE,
        EntryHeader.TRAILER_SIZE);
    return java.nio.ByteBuffer.wrap(crc).getInt();
  }

  /**
   * The index record the name's 128-bit hash leads to, or null: the member's, or another
   * member's whose name has the same hash (no name is compared, and nothing but the index is
   * read). For names known to be members (from a listing or an entry) and for writers, which
   * tell a member from a name sharing its hash with {@link #entryName}.
   */
  public IndexRecord recordOfHash(String name) throws IOException {
    Found found = find(name);
    return found == null ? null : found.record;
  }

  /**
   * The open names segment {@code file}, for one listing: closing it leaves it open for the
   * next (the reader closes it), so a listing asks the file system nothing.
   */
  private ArchiveInput namesFile(String file) throws IOException {
    ArchiveInput open = namesFiles.get(file, () -> openGenerationFile(file, -1));
    return new ForwardingInput(open) {
      @Override
      public void close() {
        // the reader's, closed with it
      }
    };
  }

  /**
   * Where a listed member's entry is: its names entry's location (names segments of format 2),
   * else its index record's (one lookup); null if the index has no record of the name.
   */
  public EntryLocation location(NameEntry entry) throws IOException {
    if (entry.location() != null) {
      return entry.location();
    }
    IndexRecord record = recordOfHash(entry.name());
    return record == null ? null : EntryLocation.of(record);
  }

  /**
   * {@link #recordOfHash} of many names at once, in their order (null where a name has no
   * record), for listings: slots of one bucket that lie close together are read with one read
   * of the records between them, so a listing of much of an archive costs a read per run of up
   * to 64 KB of records rather than one per name. The records found go to the record cache, as
   * a single lookup's do.
   */
  public List<IndexRecord> recordsOfHashes(List<String> names) throws IOException {
    List<NameHash> hashes = new ArrayList<>(names.size());
    for (String name : names) {
      hashes.add(isMemberName(name) ? hasher.hash(name) : null);
    }
    return Arrays.asList(BatchLookup.lookUp(hashes, layers, this::bucket));
  }

  /**
   * The names entry of member {@code name}, told from the names files alone (no index read), or
   * null when no member has that name: a member's entry comes first among the names that start
   * with its name, which is a prefix of all of them.
   */
  public NameEntry listedEntry(String name) throws IOException {
    if (name.isEmpty()) {
      return null;
    }
    try (Stream<NameEntry> named = listEntries(name)) {
      return named.findFirst().filter(entry -> entry.name().equals(name)).orElse(null);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /**
   * The records of listed members ({@code entries}, none a deletion), in their order. An entry
   * of a names segment that records where its member lies and its access class (every segment
   * current writers write) gives the record itself: the names segments are the generation's, as
   * its index is, so a listing read needs no index read. The others are looked up as {@link
   * #recordsOfHashes} looks them up.
   */
  public List<IndexRecord> recordsOfEntries(List<NameEntry> entries) throws IOException {
    IndexRecord[] records = new IndexRecord[entries.size()];
    List<String> unlocated = new ArrayList<>();
    List<Integer> unlocatedAt = new ArrayList<>();
    for (int i = 0; i < records.length; i++) {
      NameEntry entry = entries.get(i);
      if (entry.deleted()) {
        throw new IllegalArgumentException("a deletion is not a member: " + entry.name());
      }
      records[i] = listedRecord(entry);
      if (records[i] == null) {
        unlocated.add(entry.name());
        unlocatedAt.add(i);
      }
    }
    if (!unlocated.isEmpty()) {
      List<IndexRecord> found = recordsOfHashes(unlocated);
      for (int j = 0; j < found.size(); j++) {
        records[unlocatedAt.get(j)] = found.get(j);
      }
    }
    return Arrays.asList(records);
  }

  /**
   * The record of a member as a names entry of this generation gives it, or null where the entry
   * does not say where its entry lies or what its access class is (a segment of version 1 or 2,
   * a deletion): the names segments are the generation's, as its index is.
   */
  public IndexRecord listedRecord(NameEntry entry) {
    EntryLocation at = entry.location();
    if (entry.deleted() || at == null || entry.access() == 0) {
      return null;
    }
    return new IndexRecord(hasher.hash(entry.name()), at.part(), at.flags(), at.offset(),
        at.entryLength(), entry.length(), entry.mtimeMillis(), entry.access());
  }

  /**
   * The names of {@code names} that are not members, in their order: looked up together, as
   * {@link #recordsOfHashes} does, and, where names with equal hashes can be made, each found
   * record's entry name compared, as {@link #record} does.
   */
  public List<String> absent(List<String> names) throws IOException {
    List<IndexRecord> records = recordsOfHashes(names);
    List<String> absent = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      IndexRecord record = records.get(i);
      if (record == null
          || !hasher.collisionResistant() && !entryName(record).equals(names.get(i))) {
        absent.add(names.get(i));
      }
    }
    return absent;
  }

  /**
   * The name stored in the entry {@code record} (a record of this generation) points to. Writers
   * use it to tell a member from another name with the same 128-bit hash, which {@link #record}
   * cannot.
   */
  public String entryName(IndexRecord record) throws IOException {
    return EntryReader.storedName(parts.partOf(record, storage.location()), record);
  }

  private ArchiveInput openGenerationFile(String name, long length) throws IOException {
    try {
      return new GenerationFile(storage.open(name, length), new GenerationFile.Missing() {
        @Override
        public HpfException of(String file, FileNotFoundException e) throws IOException {
          return missing(storage, manifest, file, e);
        }

        @Override
        public boolean exists(String file) throws IOException {
          return storage.exists(file);
        }
      });
    } catch (FileNotFoundException e) {
      throw missing(storage, manifest, name, e);
    }
  }

  /**
   * A file the manifest names is gone: a writer's garbage collection removed it if a newer
   * generation exists (the reader is stale), else the archive is damaged.
   */
  private static HpfException missing(ArchiveStorage storage, Manifest manifest, String name,
      FileNotFoundException e) throws IOException {
    if (newestGeneration(storage) > manifest.generation()) {
      return new StaleGenerationException(storage.location(), manifest.generation(), name);
    }
    return new CorruptArchiveException(storage.location(), "a file that generation "
        + manifest.generation() + " names is missing (" + name + ")", e);
  }

  private Found locate(String name) throws IOException {
    Found found = find(name);
    if (found == null) {
      throw new FileNotInArchiveException(storage.location(), name);
    }
    return found;
  }

  /**
   * Looks the name up in the index layers, newest first: the first layer that has the name
   * answers (a tombstone there means deleted). Newer layers carry fingerprints, so passing a
   * layer that lacks the name costs no read.
   */
  private Found find(String name) throws IOException {
    if (!isMemberName(name)) {
      return null;
    }
    NameHash hash = hasher.hash(name);
    for (int layer = layers.size() - 1; layer >= 0; layer--) {
      DirectoryFile directory = layers.get(layer);
      int b = directory.slots()[DirectoryFile.slotOf(hash, directory.globalDepth())];
      BucketRef ref = directory.buckets().get(b);
      if (ref.recordCount() == 0) {
        continue;
      }
      IndexRecord record = bucket(layer, b, ref).find(hash);
      if (record != null) {
        return record.isTombstone() ? null
            : new Found(record, storage.location(ref.indexFile()));
      }
    }
    return null;
  }

  /**
   * False for a name no member can have. Hashing it anyway could find a member's record: a lone
   * surrogate such as U+D800 encodes to UTF-8 as '?', so it has the hash of the member "?".
   */
  private static boolean isMemberName(String name) {
    try {
      MemberNames.check(name);
      return true;
    } catch (InvalidNameException e) {
      return false;
    }
  }

  private LoadedBucket bucket(int layer, int b, BucketRef ref) throws IOException {
    return buckets.get(((long) layer << 32) | b,
        () -> LoadedBucket.load(storage, this::openGenerationFile, manifest.archiveId(), ref,
            recordCache, indexMemory, indexFitsMemory, unreadableFunctions));
  }

  @Override
  public void close() throws IOException {
    try {
      parts.close();
    } finally {
      try {
        buckets.closeAll();
      } finally {
        try {
          namesFiles.closeAll();
        } finally {
          storage.close();
        }
      }
    }
  }
}
