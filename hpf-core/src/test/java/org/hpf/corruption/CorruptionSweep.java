package org.hpf.corruption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.hpf.FileNotInArchiveException;
import org.hpf.HpfException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.FileFooter;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.format.IndexHeader;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.MemberNames;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.format.NameHash;
import org.hpf.internal.format.NameHasher;
import org.hpf.internal.format.RecordLayout;
import org.hpf.internal.index.BucketFunction;
import org.hpf.internal.read.EntryStatus;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;

/**
 * Damages the files of an archive one at a time (truncations and single-bit flips) and reads
 * every member after each damage with a fresh reader: get, open (read to the end), stat, exists,
 * plus listEntries() and lookups of absent and deleted names.
 *
 * <p>The archive has several generations ({@link #build}): a create, an append that adds names
 * and replaces some (a delta index layer with fingerprints, function codec 4), and a delete
 * (tombstones); so it has several index layers, several names segments, and parts holding
 * entries that no member uses any more.
 *
 * <p>The rule every read must follow: return exactly the right bytes or values, or throw an
 * {@link HpfException} ({@code CorruptArchiveException}, {@code ArchiveVersionException}, ...).
 * A member that exists must never be reported missing, and no other exception type may escape.
 *
 * <p>On top of that rule the sweep knows which bytes each read covers (docs/FORMAT.md: point
 * lookups check the checksums of exactly the bytes they read, whole-file reads check the footer,
 * a reader checks a part's header and id when it first opens the part) and asserts that damage
 * is detected by exactly the reads that touch it:
 * <ul>
 *   <li>a damaged manifest (of the current generation) or directory of any of its index layers
 *       fails the open; an older manifest is read by nobody;
 *   <li>a damaged names segment fails the listing;
 *   <li>a lookup asks the layers from the newest down and, in each, loads the bucket's index file
 *       (header and function section, checked) and reads at most one record (checked); the sweep
 *       computes from the undamaged files which buckets and records every lookup touches, so
 *       damage there fails exactly those lookups (of members, and of absent and deleted names,
 *       which are otherwise answered "not found"); a truncated index file fails every lookup
 *       that loads it; its footer is read by no lookup;
 *   <li>a damaged part header or part id (its first 28 bytes) or a truncated part fails every
 *       get, open, stat and exists of the members in that part (exists reads the entry header
 *       to compare the stored name); a damaged entry fails the reads of its member (stat and
 *       exists only if the damage is in the entry header), except that LZ4-compressed
 *       bytes may still decompress to the member's exact bytes (the content checksum covers the
 *       original bytes; a match offset moved within a run of one byte value, say), and then get
 *       and open may return them; entries no member uses and the part's footer are read by
 *       nobody.
 * </ul>
 * Every other read must succeed exactly. Where the reader opens parts and index files at the
 * lengths the archive records ({@link Truncations#SEEN_BY_READS_PAST_THE_END}: an object store),
 * a truncated one fails exactly the reads that pass the cut, as if the bytes after it were
 * damaged, and the reads before it succeed.
 */
final class CorruptionSweep {
  /**
   * How the sweep reads and replaces an archive file (local: java.nio; HDFS and object stores:
   * delete+create).
   */
  interface FileAccess {
    byte[] read(String name) throws IOException;

    void replace(String name, byte[] bytes) throws IOException;
  }

  /**
   * One step of a lookup in one index layer: the bucket's index file is loaded, and record
   * {@code record} of it is read (-1: the function or the fingerprints ruled the name out).
   */
  record Touch(String file, int record) {}

  /**
   * Where each member lives, which index bytes its lookup reads, and what reads return;
   * {@code fromIndex}: stat and exists answer from its record without reading its entry.
   */
  record Member(String name, byte[] bytes, EntryStatus status, int entryLength,
      int headerLength, List<Touch> lookup, boolean fromIndex) {
    /** Where its chunk checksums are in its part, [from, to) (empty if it has none). */
    int[] chunkTable() {
      int at = (int) (status.partOffset() + headerLength + status.storedLength());
      return new int[] {at, (int) status.partOffset() + entryLength - EntryHeader.TRAILER_SIZE};
    }
  }

  /** A name that is not a member (never was, or was deleted), and what its lookup reads. */
  record Absent(String name, boolean deleted, List<Touch> lookup) {}

  /** What the archive must hold: members and their bytes and mtimes, and deleted names. */
  record Model(Map<String, byte[]> bytes, Map<String, Long> mtimes, Set<String> deleted,
      Set<String> replaced) {}

  /** When a reader meets a part or index file that was cut short. */
  enum Truncations {
    /** As it opens the file: it asks the store for the file's length (local, HDFS). */
    SEEN_AT_OPEN,
    /**
     * Only by a read past the file's end: files are opened at the lengths the archive records,
     * without asking the store (an object store, where asking costs a request). Reads of bytes
     * before the cut return them.
     */
    SEEN_BY_READS_PAST_THE_END
  }

  /**
   * One damage: a truncation to {@code cut} bytes, or a flip in byte {@code offset}; {@code
   * seenAtOpen}: a truncation fails every read of the file, not only those past the cut.
   */
  private record Damage(String file, boolean truncation, int cut, int offset,
      boolean seenAtOpen) {
    /** Whether a read of the bytes [from, to) meets the damage. */
    boolean covers(int from, int to) {
      return truncation ? seenAtOpen || to > cut : offset >= from && offset < to;
    }
  }

  /** An index file as the current generation uses it. */
  private record IndexFile(BucketRef ref, int layer, long recordsOffset, int codec,
      RecordLayout layout, List<IndexRecord> records) {
    /** File offset of record {@code r}. */
    int at(int r) {
      return (int) (recordsOffset + layout.position(r));
    }

    /** The bytes [from, to) a lookup reads and checks to use record {@code r}. */
    int[] read(int r) {
      return new int[] {(int) (recordsOffset + layout.readStart(r)),
          (int) (recordsOffset + layout.readEnd(r, records.size()))};
    }
  }

  private static final List<String> NEVER_MEMBERS =
      List.of("no-such-member", "d0/absent.bin", "zzz/ünknown", "a", "d0", "added");

  private final FileSystem fs;
  private final Path archive;
  private final FileAccess access;
  private final Truncations truncations;
  private NameHasher hasher;
  private final Map<String, Member> members = new LinkedHashMap<>();
  private final List<Absent> absent = new ArrayList<>();
  private final List<NameEntry> listing = new ArrayList<>();
  private final Map<String, List<Member>> byPart = new HashMap<>();
  private final Map<String, IndexFile> indexFiles = new TreeMap<>();
  private final List<String> failures = new ArrayList<>();
  private String manifestFile;
  private final Set<String> olderManifests = new HashSet<>();
  private final List<String> directoryFiles = new ArrayList<>();
  private final List<String> namesFiles = new ArrayList<>();
  private final Set<String> partFiles = new HashSet<>();
  private int layers;
  private int mutations;
  private int reads;
  private int detected;
  private int harmless;
  private ReaderOptions readerOptions = ReaderOptions.defaults();

  CorruptionSweep(FileSystem fs, Path archive, FileAccess access, Truncations truncations) {
    this.fs = fs;
    this.archive = archive;
    this.access = access;
    this.truncations = truncations;
  }

  /**
   * Reads each damage with readers that cache the records they look up: a member's get, open,
   * stat and exists read its index record once. A lookup that fails is not cached, so each read
   * still meets the damage on its own; each damage gets a fresh reader, whose first lookup of
   * each member reads the index file. For stores where every read is slow; the lookup itself is
   * swept uncached on the local file system.
   */
  CorruptionSweep cachingRecords() {
    this.readerOptions = ReaderOptions.defaults().withRecordCacheBytes(4 << 20);
    return this;
  }

  // ---------------------------------------------------------------- building the archive

  /** Writes {@code count} source files of mixed sizes, compressible and not, into {@code dir}. */
  static void writeSources(java.nio.file.Path dir, String prefix, int count, long seed,
      boolean bigMember) throws IOException {
    Random random = new Random(seed);
    String[] dirs = {"d0", "d1/sub", "ünïcödé", "日本語", "x"};
    for (int i = 0; i < count; i++) {
      String name = prefix + dirs[i % dirs.length] + "/f-" + i + (i % 3 == 0 ? ".txt" : ".bin");
      writeSource(dir, name, i, random);
    }
    if (bigMember) {
      // A raw member over 1 MiB: open() streams it instead of reading it whole.
      byte[] big = new byte[(1 << 20) + 12_345];
      random.nextBytes(big);
      Files.write(dir.resolve(prefix + "big-raw.bin"), big);
    }
  }

  private static void writeSource(java.nio.file.Path dir, String name, int i, Random random)
      throws IOException {
    byte[] bytes;
    int kind = i % 10;
    if (i == 0) {
      bytes = new byte[0];
    } else if (kind < 4) {
      bytes = new byte[random.nextInt(3000)]; // incompressible, small
      random.nextBytes(bytes);
    } else if (kind < 8) {
      StringBuilder text = new StringBuilder(); // compressible text
      int lines = 1 + random.nextInt(60);
      for (int l = 0; l < lines; l++) {
        text.append("line ").append(l).append(" of member ").append(i).append(": ")
            .append("lorem ipsum dolor sit amet ".repeat(1 + random.nextInt(4))).append('\n');
      }
      bytes = text.toString().getBytes(StandardCharsets.UTF_8);
    } else if (kind == 8) {
      bytes = new byte[1 + random.nextInt(40)]; // tiny
      random.nextBytes(bytes);
    } else {
      bytes = new byte[10_000 + random.nextInt(30_000)]; // larger, half compressible
      random.nextBytes(bytes);
      Arrays.fill(bytes, bytes.length / 2, bytes.length, (byte) 'q');
    }
    java.nio.file.Path file = dir.resolve(name);
    Files.createDirectories(file.getParent());
    Files.write(file, bytes);
    // Whole seconds: exact on every file system.
    Files.setLastModifiedTime(file, FileTime.fromMillis(1_600_000_000_000L + 1000L * i));
    // Modes in turn: buckets of several access classes, whose ids the sweep damages too.
    Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString(
        i % 3 == 0 ? "rw-r--r--" : i % 3 == 1 ? "rw-------" : "rwxr-x---"));
  }

  /**
   * Builds the swept archive in three generations: a create of {@code baseCount} members, an
   * append (with replace) of {@code added} new members and {@code replaced} new versions of
   * existing ones, and a delete of {@code deleted} names (base members, appended members and a
   * replaced one). The counts are chosen by the callers so that the append and the delete each
   * write an index layer of their own (fewer records than a quarter of the layer below) and a
   * names segment of their own.
   */
  static Model build(Configuration conf, java.nio.file.Path tmp, Path archive, int baseCount,
      int added, int replaced, int deleted, int bucketCapacity, long partSize, long seed)
      throws IOException {
    java.nio.file.Path base = tmp.resolve("src-base");
    writeSources(base, "", baseCount, seed, true);
    // One merge thread: the same inputs give the same parts and offsets, so a seed replays.
    WriterOptions options = WriterOptions.builder().settings(s -> s.threads(1))
        .layout(l -> l.withBucketCapacity(bucketCapacity).withPartSize(partSize)
        .withBlockSize(1 << 20)).build();
    ArchiveCreator.create(conf, archive, List.of(new Path(base.toUri())), options);
    Map<String, byte[]> bytes = new TreeMap<>(MemberNames.ORDER);
    Map<String, Long> mtimes = new HashMap<>();
    readTree(base, bytes, mtimes);
    List<String> baseNames = new ArrayList<>(bytes.keySet());

    java.nio.file.Path more = tmp.resolve("src-append");
    Random random = new Random(seed + 1);
    writeSources(more, "added/", added, seed + 2, false);
    Set<String> replacedNames = new TreeSet<>(MemberNames.ORDER);
    for (int i = 0; replacedNames.size() < replaced; i++) {
      String name = baseNames.get((i * 37 + 11) % baseNames.size());
      if (replacedNames.add(name)) {
        writeSource(more, name, 1000 + i, random);
      }
    }
    readTree(more, bytes, mtimes);

    List<String> all = new ArrayList<>(bytes.keySet());
    Set<String> deletedNames = new TreeSet<>(MemberNames.ORDER);
    deletedNames.add(replacedNames.iterator().next());
    for (String name : all) {
      if (name.startsWith("added/") && deletedNames.size() < 2) {
        deletedNames.add(name);
      }
    }
    for (int i = 0; deletedNames.size() < deleted; i++) {
      deletedNames.add(all.get((i * 53 + 5) % all.size()));
    }
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, options)) {
      writer.append(List.of(new Path(more.toUri())), true);
      writer.delete(deletedNames);
    }
    for (String name : deletedNames) {
      bytes.remove(name);
      mtimes.remove(name);
    }
    return new Model(bytes, mtimes, deletedNames, replacedNames);
  }

  private static void readTree(java.nio.file.Path root, Map<String, byte[]> bytes,
      Map<String, Long> mtimes) throws IOException {
    try (Stream<java.nio.file.Path> walk = Files.walk(root)) {
      for (java.nio.file.Path file : walk.filter(Files::isRegularFile).toList()) {
        String name = root.relativize(file).toString().replace('\\', '/');
        bytes.put(name, Files.readAllBytes(file));
        mtimes.put(name, Files.getLastModifiedTime(file).toMillis());
      }
    }
  }

  // ---------------------------------------------------------------- learning the good archive

  /**
   * Reads the undamaged archive and records every expected answer, every member's place, and
   * which index bytes every lookup reads (by evaluating each layer's functions itself).
   */
  void learn(Model model) throws IOException {
    try (HpfReader reader = open()) {
      Manifest manifest = reader.manifest();
      hasher = NameHasher.forAlgorithm(manifest.hashAlgorithm());
      manifestFile = Manifest.fileName(manifest.generation());
      for (String name : listManifests()) {
        if (!name.equals(manifestFile)) {
          olderManifests.add(name);
        }
      }
      layers = manifest.layers().size();
      for (Manifest.Layer layer : manifest.layers()) {
        if (layer.directoryFile() != null) { // else the manifest carries the directory
          directoryFiles.add(layer.directoryFile());
        }
      }
      for (Manifest.NamesSegment segment : manifest.namesSegments()) {
        namesFiles.add(segment.file());
      }
      for (Manifest.PartInfo part : manifest.parts()) {
        partFiles.add(ArchiveLayout.part(part.id()));
      }
      List<DirectoryFile> directories = reader.layers();
      for (int layer = 0; layer < directories.size(); layer++) {
        for (BucketRef ref : directories.get(layer).buckets()) {
          if (ref.recordCount() > 0) {
            indexFiles.put(ref.indexFile(), loadIndexFile(ref, layer, manifest));
          }
        }
      }
      try (Stream<NameEntry> listed = reader.listEntries()) {
        listing.addAll(listed.toList());
      }
      List<String> names = listing.stream().map(NameEntry::name).toList();
      if (!names.equals(new ArrayList<>(model.bytes().keySet()))) {
        throw new AssertionError("undamaged archive lists " + names.size() + " names, the model "
            + "has " + model.bytes().size());
      }
      Map<String, byte[]> parts = new HashMap<>();
      for (NameEntry entry : listing) {
        String name = entry.name();
        byte[] bytes = model.bytes().get(name);
        if (!Arrays.equals(bytes, reader.get(name))) {
          throw new AssertionError("undamaged archive returns wrong bytes for " + name);
        }
        EntryStatus status = reader.stat(name);
        if (status.length() != bytes.length || entry.length() != bytes.length
            || status.mtimeMillis() != model.mtimes().get(name)
            || entry.mtimeMillis() != model.mtimes().get(name)) {
          throw new AssertionError("undamaged archive: wrong status of " + name + ": " + status
              + ", listed as " + entry);
        }
        int nameBytes = name.getBytes(StandardCharsets.UTF_8).length;
        int headerLength = EntryHeader.size(nameBytes);
        // The entry's length from its own header: stored bytes, chunk checksums if any, trailer.
        byte[] part = parts.computeIfAbsent(ArchiveLayout.part(status.part()), this::readFile);
        int entryLength = (int) EntryHeader.read(part, (int) status.partOffset(), headerLength,
            "part", status.partOffset()).entryLength();
        List<Touch> lookup = lookup(directories, name, true);
        Touch last = lookup.get(lookup.size() - 1);
        boolean fromIndex = hasher.collisionResistant()
            && indexFiles.get(last.file()).records().get(last.record()).hasMtime();
        Member member =
            new Member(name, bytes, status, entryLength, headerLength, lookup, fromIndex);
        members.put(name, member);
        byPart.computeIfAbsent(ArchiveLayout.part(status.part()), k -> new ArrayList<>())
            .add(member);
      }
      for (String name : model.deleted()) {
        absent.add(new Absent(name, true, lookup(directories, name, false)));
        if (reader.exists(name)) {
          throw new AssertionError("undamaged archive: deleted " + name + " exists");
        }
      }
      for (String name : NEVER_MEMBERS) {
        if (model.bytes().containsKey(name)) {
          throw new AssertionError(name + " is a member");
        }
        absent.add(new Absent(name, false, lookup(directories, name, false)));
      }
    }
  }

  private byte[] readFile(String file) {
    try {
      return access.read(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private List<String> listManifests() throws IOException {
    List<String> names = new ArrayList<>();
    for (org.apache.hadoop.fs.FileStatus status : fs.listStatus(new Path(archive, Manifest.DIR))) {
      names.add(Manifest.DIR + "/" + status.getPath().getName());
    }
    return names;
  }

  private IndexFile loadIndexFile(BucketRef ref, int layer, Manifest manifest)
      throws IOException {
    byte[] bytes = access.read(ref.indexFile());
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    buf.position(FileHeader.SIZE);
    IndexHeader header = IndexHeader.read(buf, ref.indexFile(), FileHeader.version(buf, 0));
    List<IndexRecord> records = new ArrayList<>();
    RecordLayout.Span span = new RecordLayout.Span(header.layout(), Arrays.copyOfRange(bytes,
        (int) header.recordsOffset(), bytes.length), 0, header.recordCount(), ref.indexFile(), 0);
    for (int i = 0; i < header.recordCount(); i++) {
      records.add(span.record(i));
    }
    if (layer > 0 && !BucketFunction.carriesFingerprints(header.functionCodec())) {
      throw new AssertionError(ref.indexFile() + " of layer " + layer + " has codec "
          + header.functionCodec());
    }
    return new IndexFile(ref, layer, header.recordsOffset(), header.functionCodec(),
        header.layout(), records);
  }

  /**
   * The index bytes a lookup of {@code name} reads, as HpfReader looks names up: from the newest
   * layer down, skip empty buckets, load the bucket, evaluate its function (with fingerprints in
   * codecs 2 and 4) and read the record it names; stop at the first record whose hash is the name's.
   */
  private List<Touch> lookup(List<DirectoryFile> directories, String name, boolean member)
      throws IOException {
    NameHash hash = hasher.hash(name);
    List<Touch> touches = new ArrayList<>();
    for (int layer = directories.size() - 1; layer >= 0; layer--) {
      BucketRef ref = directories.get(layer).bucketOf(hash);
      if (ref.recordCount() == 0) {
        continue;
      }
      byte[] bytes = access.read(ref.indexFile());
      ByteBuffer buf = ByteBuffer.wrap(bytes);
      buf.position(FileHeader.SIZE);
      IndexHeader header = IndexHeader.read(buf, ref.indexFile(), FileHeader.version(buf, 0));
      BucketFunction function = BucketFunction.fromBytes(header.functionCodec(), bytes,
          FileHeader.SIZE + IndexHeader.SIZE, header.functionLength(), header.recordCount(),
          ref.indexFile());
      long slot = function.slotOf(hash);
      touches.add(new Touch(ref.indexFile(), (int) slot));
      if (slot >= 0) {
        IndexRecord record = indexFiles.get(ref.indexFile()).records().get((int) slot);
        if (record.hash().equals(hash)) {
          if (record.isTombstone() == member) {
            throw new AssertionError(name + ": lookup ends at "
                + (member ? "a tombstone" : "a member's record") + " in layer " + layer);
          }
          return touches;
        }
      }
    }
    if (member) {
      throw new AssertionError(name + ": no layer has its record");
    }
    return touches;
  }

  /** The archive's files, relative to its root, in a stable order. */
  List<String> files() throws IOException {
    TreeSet<String> files = new TreeSet<>();
    String root = fs.makeQualified(archive).toUri().getPath();
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(archive, true);
    while (it.hasNext()) {
      String path = it.next().getPath().toUri().getPath();
      files.add(path.substring(root.length() + 1));
    }
    return new ArrayList<>(files);
  }

  Map<String, Member> members() {
    return members;
  }

  int bucketCount() {
    return indexFiles.size();
  }

  int partCount() {
    return partFiles.size();
  }

  int layerCount() {
    return layers;
  }

  int namesSegmentCount() {
    return namesFiles.size();
  }

  /** Index files of the layers above the base (fingerprinted, function codec 4). */
  long deltaIndexFiles() {
    return indexFiles.values().stream().filter(f -> f.layer() > 0).count();
  }

  /** Tombstones in the index files of the current generation. */
  long tombstones() {
    return indexFiles.values().stream().flatMap(f -> f.records().stream())
        .filter(IndexRecord::isTombstone).count();
  }

  /** Parts holding entries that no member of the current generation uses. */
  long partsWithDeadEntries() throws IOException {
    long count = 0;
    try (HpfReader reader = open()) {
      for (Manifest.PartInfo part : reader.manifest().parts()) {
        long entries = 0;
        byte[] bytes = access.read(ArchiveLayout.part(part.id()));
        int at = FileHeader.SIZE + 4;
        while (at < bytes.length - FileFooter.SIZE) {
          EntryHeader header = EntryHeader.read(bytes, at, bytes.length - at, "p", at);
          at += (int) header.entryLength();
          entries++;
        }
        if (entries > part.liveEntries()) {
          count++;
        }
      }
    }
    return count;
  }

  private HpfReader open() throws IOException {
    return HpfReader.open(fs, archive, readerOptions);
  }

  // ---------------------------------------------------------------- the sweep

  /**
   * The reduced sweep of a small archive {@link #build} made (on HDFS, on an object store):
   * learns it, checks that it has what the sweep damages (several parts and index files, three
   * index layers, a tombstone per deleted name, several names segments), then cuts every file
   * at four points and flips {@code flips} bits of each. Fails with the wrong reads.
   */
  void sweepReduced(Model model, int flips, long seed) throws IOException {
    long start = System.nanoTime();
    learn(model);
    checkUndamaged();
    List<String> files = files();
    System.out.println(describeArchive());
    assertTrue(partCount() >= 2, "parts: " + partCount());
    assertTrue(bucketCount() >= 2, "index files: " + bucketCount());
    assertEquals(3, layerCount(), "index layers");
    assertEquals(model.deleted().size(), tombstones(), "tombstones");
    assertTrue(namesSegmentCount() >= 2, "names segments: " + namesSegmentCount());
    assertTrue(failures.isEmpty(), String.join("\n", failures));

    sweep(files, flips, false, seed);
    System.out.println(summary() + " in " + (System.nanoTime() - start) / 1_000_000 + " ms");
    assertTrue(failures.isEmpty(), "seed " + seed + ": " + summary() + "\n"
        + String.join("\n", failures));
  }

  /**
   * Damages every file: truncations at the given points and {@code flips} single-bit flips, the
   * first ones aimed at the regions each kind of file has (header, footer, part id, function
   * section, fingerprints, tombstone records, entry headers), the rest at random offsets;
   * restoring the file after each.
   */
  void sweep(List<String> files, int flips, boolean allTruncations, long seed)
      throws IOException {
    Random random = new Random(seed);
    for (String file : files) {
      byte[] original = access.read(file);
      int length = original.length;
      TreeSet<Integer> cuts = new TreeSet<>();
      if (allTruncations) {
        cuts.addAll(List.of(0, 1, FileHeader.SIZE - 1, FileHeader.SIZE, FileHeader.SIZE + 3,
            length / 2, length - 1, length - FileFooter.SIZE));
      } else {
        cuts.addAll(List.of(0, FileHeader.SIZE, length / 2, length - 1));
      }
      for (int cut : cuts) {
        if (cut >= 0 && cut < length) {
          damage(original, truncation(file, cut),
              "truncated to " + cut + " of " + length + " bytes");
        }
      }
      List<int[]> targets = targets(file, length);
      for (int i = 0; i < flips; i++) {
        int offset;
        if (i < targets.size()) {
          int[] range = targets.get(i);
          offset = range[0] + random.nextInt(range[1] - range[0]);
        } else {
          offset = random.nextInt(length);
        }
        int bit = random.nextInt(8);
        byte[] flipped = original.clone();
        flipped[offset] ^= (byte) (1 << bit);
        damage(original, flipped, flip(file, offset),
            "bit " + bit + " of byte " + offset + " of " + length + " flipped");
      }
    }
    // Everything was restored: the archive reads as new.
    checkUndamaged();
  }

  /** Byte ranges [from, to) worth aiming the first flips of a file at. */
  private List<int[]> targets(String file, int length) {
    List<int[]> targets = new ArrayList<>();
    targets.add(new int[] {0, FileHeader.SIZE});
    targets.add(new int[] {length - FileFooter.SIZE, length});
    if (partFiles.contains(file)) {
      targets.add(new int[] {FileHeader.SIZE, FileHeader.SIZE + 4}); // PartId
      for (Member member : byPart.getOrDefault(file, List.of())) {
        int start = (int) member.status().partOffset();
        targets.add(new int[] {start, start + member.headerLength()});
        if (targets.size() >= 5) {
          break;
        }
      }
      for (Member member : byPart.getOrDefault(file, List.of())) {
        int[] table = member.chunkTable();
        if (table[1] > table[0]) {
          targets.add(table);
        }
      }
    }
    IndexFile index = indexFiles.get(file);
    if (index != null) {
      int sectionStart = FileHeader.SIZE;
      targets.add(new int[] {sectionStart, (int) index.recordsOffset()});
      if (BucketFunction.carriesFingerprints(index.codec())) {
        int fingerprints = (int) index.recordsOffset() - 4 - 2 * index.records().size();
        targets.add(new int[] {fingerprints, fingerprints + 2 * index.records().size()});
      }
      for (int r = 0; r < index.records().size(); r++) {
        if (index.records().get(r).isTombstone()) {
          targets.add(new int[] {index.at(r), index.at(r) + IndexRecord.SIZE});
          break;
        }
      }
    }
    return targets;
  }

  /**
   * Flips every single bit of the manifest and of every layer's directory in turn: they are read
   * whole when an archive is opened, so each flip must make the open fail (which keeps this
   * cheap).
   */
  void flipEveryBitOfManifestAndDirectories() throws IOException {
    List<String> files = new ArrayList<>();
    files.add(manifestFile);
    files.addAll(directoryFiles);
    for (String file : files) {
      byte[] original = access.read(file);
      for (int bit = 0; bit < 8 * original.length; bit++) {
        byte[] flipped = original.clone();
        flipped[bit / 8] ^= (byte) (1 << (bit % 8));
        damage(original, flipped, flip(file, bit / 8),
            "bit " + bit % 8 + " of byte " + bit / 8 + " flipped");
      }
    }
  }

  /**
   * Flips one bit (at random) of every byte of one tombstone record, and of every fingerprint of
   * the bucket that holds it: each flip must fail exactly the lookups that read those bytes (a
   * tombstone's record is read by the lookup of its name, and by a lookup whose fingerprint
   * matches its slot's; fingerprints are checked with the function section when a bucket is
   * loaded).
   */
  void flipTombstoneAndFingerprintBits(long seed) throws IOException {
    Random random = new Random(seed);
    for (Map.Entry<String, IndexFile> e : indexFiles.entrySet()) {
      IndexFile index = e.getValue();
      for (int r = 0; r < index.records().size(); r++) {
        if (!index.records().get(r).isTombstone()) {
          continue;
        }
        byte[] original = access.read(e.getKey());
        int at = index.at(r);
        for (int i = at; i < at + IndexRecord.SIZE; i++) {
          flipBit(e.getKey(), original, 8 * i + random.nextInt(8));
        }
        int fingerprints = (int) index.recordsOffset() - 4 - 2 * index.records().size();
        for (int f = 0; f < index.records().size(); f++) {
          flipBit(e.getKey(), original, 8 * (fingerprints + 2 * f) + random.nextInt(16));
        }
        return;
      }
    }
    throw new AssertionError("no tombstone to damage");
  }

  /**
   * Flips one bit (at random) of every chunk checksum of every member that has them, and of its
   * content checksum: each flip must fail exactly the reads of that member's bytes (get, and
   * open read to the end), as damage to its stored bytes does.
   */
  void flipChunkChecksumBits(long seed) throws IOException {
    Random random = new Random(seed);
    int tables = 0;
    for (Member member : members.values()) {
      int[] table = member.chunkTable();
      if (table[1] == table[0]) {
        continue;
      }
      tables++;
      String file = ArchiveLayout.part(member.status().part());
      byte[] original = access.read(file);
      for (int at = table[0]; at < table[1] + EntryHeader.TRAILER_SIZE; at += 4) {
        flipBit(file, original, 8 * at + random.nextInt(32));
      }
    }
    if (tables == 0) {
      throw new AssertionError("no member has chunk checksums to damage");
    }
  }

  private Damage truncation(String file, int cut) {
    return new Damage(file, true, cut, -1, truncations == Truncations.SEEN_AT_OPEN);
  }

  private static Damage flip(String file, int offset) {
    return new Damage(file, false, -1, offset, false);
  }

  private void flipBit(String file, byte[] original, int bit) throws IOException {
    byte[] flipped = original.clone();
    flipped[bit / 8] ^= (byte) (1 << (bit % 8));
    damage(original, flipped, flip(file, bit / 8),
        "bit " + bit % 8 + " of byte " + bit / 8 + " flipped");
  }

  /** Checks every read of the archive as it is, expecting no error at all. */
  void checkUndamaged() {
    check(null, "no damage");
  }

  private void damage(byte[] original, Damage damage, String what) throws IOException {
    damage(original, Arrays.copyOf(original, damage.cut()), damage, what);
  }

  private void damage(byte[] original, byte[] damaged, Damage damage, String what)
      throws IOException {
    mutations++;
    access.replace(damage.file(), damaged);
    try {
      check(damage, what);
    } finally {
      access.replace(damage.file(), original);
    }
  }

  // ---------------------------------------------------------------- which reads must fail

  private void checkKnown(String file) {
    if (!file.equals(manifestFile) && !olderManifests.contains(file)
        && !directoryFiles.contains(file) && !namesFiles.contains(file)
        && !partFiles.contains(file) && !indexFiles.containsKey(file)) {
      throw new AssertionError("unexpected archive file " + file);
    }
  }

  private boolean openFails(Damage d) {
    return d != null && (d.file().equals(manifestFile) || directoryFiles.contains(d.file()));
  }

  private boolean listFails(Damage d) {
    return d != null && namesFiles.contains(d.file());
  }

  /** Whether a lookup that reads these index bytes meets the damage. */
  private boolean lookupFails(Damage d, List<Touch> lookup) {
    if (d == null) {
      return false;
    }
    IndexFile index = indexFiles.get(d.file());
    if (index == null) {
      return false;
    }
    for (Touch touch : lookup) {
      if (!touch.file().equals(d.file())) {
        continue;
      }
      // Loading checks the length against the directory, the header and the function section.
      if (d.covers(0, (int) index.recordsOffset())) {
        return true;
      }
      if (touch.record() >= 0) {
        int[] read = index.read(touch.record());
        return d.covers(read[0], read[1]);
      }
    }
    return false;
  }

  /** Whether opening the member's part meets the damage: a cut part, its header or part id. */
  private static boolean partFails(Damage d, Member m) {
    return d != null && d.file().equals(ArchiveLayout.part(m.status().part()))
        && d.covers(0, FileHeader.SIZE + 4);
  }

  private static boolean entryFails(Damage d, Member m, boolean headerOnly) {
    if (d == null || !d.file().equals(ArchiveLayout.part(m.status().part()))) {
      return false;
    }
    int start = (int) m.status().partOffset();
    return d.covers(start, start + (headerOnly ? m.headerLength() : m.entryLength()));
  }

  /** Whether a flip hit the stored bytes (not header, not trailer) of an LZ4 member's entry. */
  private static boolean lz4StoredBytes(Damage d, Member m) {
    if (d == null || d.truncation() || m.status().codec() != org.hpf.internal.format.Codec.LZ4
        || !d.file().equals(ArchiveLayout.part(m.status().part()))) {
      return false;
    }
    int start = (int) m.status().partOffset();
    return d.covers(start + m.headerLength(), start + m.entryLength() - EntryHeader.TRAILER_SIZE);
  }

  // ---------------------------------------------------------------- checking one damage

  /** The outcome of one read: null if it threw an allowed exception, else the failure text. */
  private static String classify(Throwable t) {
    Throwable e = t instanceof UncheckedIOException u && u.getCause() != null ? u.getCause() : t;
    if (e instanceof HpfException) {
      return null;
    }
    if (e instanceof FileNotInArchiveException) {
      return "reported missing: " + e;
    }
    return "threw " + describe(t);
  }

  private static String describe(Throwable t) {
    StringBuilder text = new StringBuilder(t.toString());
    StackTraceElement[] trace = t.getStackTrace();
    for (int i = 0; i < Math.min(4, trace.length); i++) {
      text.append("\n        at ").append(trace[i]);
    }
    if (t.getCause() != null && t.getCause() != t) {
      text.append("\n      caused by ").append(describe(t.getCause()));
    }
    return text.toString();
  }

  private void fail(Damage d, String what, String read, String problem) {
    if (failures.size() < 60) {
      failures.add((d == null ? "(undamaged archive)" : d.file()) + ", " + what + ": " + read
          + ": " + problem);
    }
  }

  /** Runs one read; returns true if it threw (an allowed exception). */
  private boolean attempt(Damage d, String what, String read, boolean mustFail,
      ThrowingCheck check) {
    return attempt(d, what, read, mustFail, false, check);
  }

  /**
   * Runs one read that must fail ({@code mustFail}), may fail or return the right answer
   * ({@code mayFail}), or must return the right answer; returns true if it threw.
   */
  private boolean attempt(Damage d, String what, String read, boolean mustFail, boolean mayFail,
      ThrowingCheck check) {
    reads++;
    try {
      String wrong = check.run();
      if (wrong != null) {
        fail(d, what, read, wrong);
      } else if (mustFail) {
        fail(d, what, read, "damage went unnoticed although this read covers it");
      } else if (mayFail) {
        harmless++;
      }
      return false;
    } catch (Throwable t) {
      if (t instanceof VirtualMachineError && !(t instanceof OutOfMemoryError)
          && !(t instanceof StackOverflowError)) {
        throw (VirtualMachineError) t;
      }
      String problem = classify(t);
      if (problem != null) {
        fail(d, what, read, problem);
      } else if (!mustFail && !mayFail) {
        fail(d, what, read, "failed although it reads no damaged byte: " + t);
      } else {
        detected++;
      }
      return true;
    }
  }

  @FunctionalInterface
  private interface ThrowingCheck {
    /** Returns null when the answer is right, else what is wrong with it. */
    String run() throws Exception;
  }

  private void check(Damage d, String what) {
    if (d != null) {
      checkKnown(d.file());
    }
    HpfReader reader;
    boolean openFails = openFails(d);
    try {
      reader = open();
      if (openFails) {
        fail(d, what, "open", "damage went unnoticed although open reads the whole file");
      }
    } catch (Throwable t) {
      reads++;
      String problem = classify(t);
      if (problem != null) {
        fail(d, what, "open", problem);
      } else if (!openFails) {
        fail(d, what, "open", "failed although it reads no damaged byte: " + t);
      } else {
        detected++;
      }
      return;
    }
    try (reader) {
      for (Member member : members.values()) {
        String name = member.name();
        boolean lookup = lookupFails(d, member.lookup());
        boolean part = partFails(d, member);
        // The content checksum covers the original bytes: damage to LZ4-compressed bytes that
        // still decompress to them (a match offset moved within a run) is harmless, and a get
        // may return the right bytes; any other damage to the entry is detected.
        boolean compressed = lz4StoredBytes(d, member);
        boolean get = lookup || part || (entryFails(d, member, false) && !compressed);
        boolean stat = lookup || (!member.fromIndex() && (part || entryFails(d, member, true)));
        attempt(d, what, "get(" + name + ")", get, compressed,
            () -> Arrays.equals(member.bytes(), reader.get(name)) ? null : "wrong bytes");
        attempt(d, what, "open(" + name + ")", get, compressed,
            () -> streamsExactly(reader, name, member.bytes()) ? null : "wrong bytes");
        attempt(d, what, "stat(" + name + ")", stat,
            () -> member.status().equals(reader.stat(name)) ? null
                : "wrong status " + reader.stat(name) + ", expected " + member.status());
        attempt(d, what, "exists(" + name + ")", stat,
            () -> reader.exists(name) ? null : "says the member does not exist");
      }
      for (Absent name : absent) {
        attemptAbsent(d, what, name, lookupFails(d, name.lookup()), reader);
      }
      attempt(d, what, "listEntries()", listFails(d), () -> {
        try (Stream<NameEntry> listed = reader.listEntries()) {
          List<NameEntry> got = listed.toList();
          return got.equals(listing) ? null : "wrong listing (" + got.size() + " names)";
        }
      });
    } catch (IOException e) {
      fail(d, what, "close", "threw " + describe(e));
    }
  }

  /**
   * A name that is not a member: "not found" (FileNotInArchiveException, exists false), never
   * bytes; if its lookup reads damaged index bytes, an HpfException from every read instead.
   */
  private void attemptAbsent(Damage d, String what, Absent name, boolean mustFail,
      HpfReader reader) {
    String n = name.name();
    List<ThrowingCheck> reads = List.of(
        () -> "returned " + reader.get(n).length + " bytes",
        () -> {
          try (InputStream in = reader.open(n)) {
            return "opened a stream";
          }
        },
        () -> "returned " + reader.stat(n),
        () -> reader.exists(n) ? "says it exists" : null);
    String label = (name.deleted() ? "deleted '" : "absent '") + n + "' read ";
    for (int i = 0; i < reads.size(); i++) {
      this.reads++;
      boolean notFound = i == 3;
      try {
        String wrong = reads.get(i).run();
        if (wrong != null) {
          fail(d, what, label + i, wrong);
        } else if (mustFail) {
          fail(d, what, label + i, "damage went unnoticed although this lookup reads it");
        }
      } catch (FileNotInArchiveException e) {
        if (mustFail) {
          fail(d, what, label + i, "reported missing although its lookup reads damage: " + e);
        } else {
          notFound = true;
        }
      } catch (Throwable t) {
        if (!(t instanceof HpfException)) {
          fail(d, what, label + i, "threw " + describe(t));
        } else if (!mustFail) {
          fail(d, what, label + i, "failed although it reads no damaged byte: " + t);
        } else {
          detected++;
        }
        continue;
      }
      if (!notFound && !mustFail) {
        fail(d, what, label + i, "was not reported missing");
      }
    }
  }

  /**
   * Whether the stream of member {@code name}, read to its end with single-byte and bulk reads
   * mixed, holds exactly {@code expected}. Compared as it is read, with nothing copied: the
   * sweep streams every member after every damage. A difference does not stop the read, so a
   * failure the rest of the stream meets is still thrown.
   */
  private static boolean streamsExactly(HpfReader reader, String name, byte[] expected)
      throws IOException {
    try (InputStream in = reader.open(name)) {
      byte[] buffer = new byte[8192];
      boolean same = true;
      long at = 0;
      int first = in.read();
      if (first >= 0) {
        same = expected.length > 0 && (byte) first == expected[0];
        at = 1;
        int n;
        while ((n = in.read(buffer, 0, buffer.length)) >= 0) {
          same = same && at + n <= expected.length
              && Arrays.equals(buffer, 0, n, expected, (int) at, (int) at + n);
          at += n;
        }
      }
      return same && at == expected.length && in.read() == -1;
    }
  }

  // ---------------------------------------------------------------- results

  List<String> failures() {
    return failures;
  }

  String summary() {
    return mutations + " damaged archives, " + reads + " reads, " + detected
        + " of them reported the damage as expected, " + harmless + " returned the right bytes "
        + "from damaged LZ4 bytes, " + failures.size() + " failures";
  }

  String describeArchive() throws IOException {
    return files().size() + " files, " + members.size() + " members, " + absent.size()
        + " absent or deleted names, " + partCount() + " parts (" + partsWithDeadEntries()
        + " with dead entries), " + layerCount() + " index layers, " + bucketCount()
        + " index files (" + deltaIndexFiles() + " fingerprinted), " + tombstones()
        + " tombstones, " + namesSegmentCount() + " names segments: " + files();
  }

  // ---------------------------------------------------------------- file access

  /** Local file system: files are replaced in place with java.nio (no checksum side files). */
  static FileAccess local(java.nio.file.Path root) {
    return new FileAccess() {
      @Override
      public byte[] read(String name) throws IOException {
        return Files.readAllBytes(root.resolve(name));
      }

      @Override
      public void replace(String name, byte[] bytes) throws IOException {
        Files.write(root.resolve(name), bytes);
      }
    };
  }

  /** Any Hadoop file system (HDFS): files cannot be rewritten, so delete and create. */
  static FileAccess hadoop(FileSystem fs, Path root) {
    return new FileAccess() {
      @Override
      public byte[] read(String name) throws IOException {
        Path path = new Path(root, name);
        byte[] bytes = new byte[(int) fs.getFileStatus(path).getLen()];
        try (var in = fs.open(path)) {
          in.readFully(0, bytes);
        }
        return bytes;
      }

      @Override
      public void replace(String name, byte[] bytes) throws IOException {
        Path path = new Path(root, name);
        org.apache.hadoop.fs.FileStatus status = fs.getFileStatus(path);
        if (!fs.delete(path, false)) {
          throw new IOException("could not delete " + path);
        }
        try (FSDataOutputStream out = fs.create(path, false, 64 * 1024, status.getReplication(),
            status.getBlockSize())) {
          out.write(bytes);
        }
      }
    };
  }
}
