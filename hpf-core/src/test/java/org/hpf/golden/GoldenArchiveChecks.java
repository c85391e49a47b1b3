package org.hpf.golden;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.hpf.FileNotInArchiveException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.EntryLocation;
import org.hpf.internal.format.FileFooter;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.format.FileKind;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.MemberNames;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.format.NameHasher;
import org.hpf.internal.index.BucketFunction;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.read.EntryStatus;
import org.hpf.internal.read.HpfReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads a committed golden archive of one format version on every build, so that a change to
 * the bytes hpf reads (or writes) cannot pass unnoticed; see docs/FORMAT.md. The archive has
 * three generations (see {@link GoldenArchive}): its bytes cover a base index layer (function
 * codec 1, from format 7 codec 3; empty and single-key buckets), two newer layers with
 * fingerprints (codec 2, from format 7 codec 4), one of
 * them a tombstone, three names segments (one with a deletion), entries no member uses any more,
 * and two manifests. Parsing by the documented layout alone covers the version's differences:
 * the hash algorithm, each kind's version, and the index records' layout.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class GoldenArchiveChecks {
  private final int version;
  /** The access widths of the index files {@link #filesFollowTheDocumentedLayout} parsed. */
  private final Set<Integer> widths = new HashSet<>();
  private Path archive;
  private GoldenArchive.Expected expected;

  @TempDir Path tmp;

  GoldenArchiveChecks(int version) {
    this.version = version;
  }

  @BeforeAll
  void load() throws IOException {
    Path golden = GoldenArchive.resources(version);
    archive = golden.resolve("archive.hpf");
    expected = GoldenArchive.parse(
        Files.readString(golden.resolve("expected.txt"), StandardCharsets.UTF_8));
  }

  Path archive() {
    return archive;
  }

  /** A copy of the golden archive in the test's directory, to damage. */
  Path copyOfGolden() throws IOException {
    Path copy = tmp.resolve("copy.hpf");
    for (Map.Entry<String, byte[]> file : files(archive()).entrySet()) {
      Path target = copy.resolve(file.getKey());
      Files.createDirectories(target.getParent());
      Files.write(target, file.getValue());
    }
    return copy;
  }

  /** {@code file} with its footer's CRC32C made right again. */
  static byte[] resealed(byte[] file) {
    byte[] copy = file.clone();
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(copy, 0, copy.length - 4);
    ByteBuffer.wrap(copy).putInt(copy.length - 4, (int) crc.getValue());
    return copy;
  }

  /**
   * Opening {@code archive} with {@code bytes} in {@code file} fails as corrupt, with {@code
   * message} in the error; the file is put back after.
   */
  static void assertRefused(Path archive, Path file, byte[] bytes, String message)
      throws IOException {
    byte[] original = Files.readAllBytes(file);
    Files.write(file, bytes);
    try {
      org.hpf.CorruptArchiveException e = org.junit.jupiter.api.Assertions.assertThrows(
          org.hpf.CorruptArchiveException.class, () -> HpfReader.open(new Configuration(),
              new org.apache.hadoop.fs.Path(archive.toUri())).close());
      assertTrue(e.getMessage().contains(message), e.getMessage());
    } finally {
      Files.write(file, original);
    }
  }

  GoldenArchive.Expected expected() {
    return expected;
  }

  /** The hash algorithm of the version's archives: MurmurHash3 in 1, SHA-256 since 2. */
  private int hashAlgorithm() {
    return version == 1 ? NameHasher.MURMUR3_128_ID : NameHasher.SHA256_128_ID;
  }

  /** The version a file of this kind has in an archive of this format version. */
  private int versionOf(FileKind kind) {
    return switch (kind) {
      case MANIFEST -> Math.min(version, 6); // format 7 changed only the function codec
      case JOURNAL -> Math.min(version, 4);
      case DIRECTORY -> 1;
      case PART -> version >= 3 ? 2 : 1; // chunk checksums from format 3 on
      case INDEX, NAMES -> version >= 4 ? 3 : Math.min(version, 2); // access ids in format 4
      case REMOVAL -> throw new IllegalArgumentException("a committed archive has no " + kind);
    };
  }

  private HpfReader open() throws IOException {
    return HpfReader.open(new Configuration(), new org.apache.hadoop.fs.Path(archive.toUri()));
  }

  /** The archive's files by relative name ("_manifests/manifest-0000000001", "part-000000"). */
  static Map<String, byte[]> files(Path root) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path file : walk.filter(Files::isRegularFile).toList()) {
        files.put(root.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
      }
    }
    return files;
  }

  static FileKind kindOf(String file) {
    if (file.startsWith(Manifest.DIR + "/" + Manifest.PREFIX)) {
      return FileKind.MANIFEST;
    }
    String[] prefixes = {"directory-", "index-", "part-", "names-"};
    FileKind[] kinds = {FileKind.DIRECTORY, FileKind.INDEX, FileKind.PART, FileKind.NAMES};
    for (int i = 0; i < prefixes.length; i++) {
      if (file.startsWith(prefixes[i])) {
        return kinds[i];
      }
    }
    throw new AssertionError("unexpected file in the golden archive: " + file);
  }

  /** Generation 2's members: generation 1's plus the appended ones (which win). */
  private Map<String, byte[]> generation2Contents() {
    Map<String, byte[]> members = new LinkedHashMap<>(GoldenArchive.contents(version));
    members.putAll(GoldenArchive.appended());
    return members;
  }

  private Map<String, Long> generation2Mtimes() {
    Map<String, Long> mtimes = new HashMap<>(GoldenArchive.finalMtimes(version));
    int i = 0;
    for (String name : GoldenArchive.contents(version).keySet()) {
      long mtime = GoldenArchive.mtime(i++);
      if (!GoldenArchive.appended().containsKey(name)) {
        mtimes.put(name, mtime);
      }
    }
    return mtimes;
  }

  @Test
  void goldenSetCoversWhatItMust() {
    List<GoldenArchive.ExpectedMember> members = expected.members();
    assertTrue(members.stream().anyMatch(m -> m.codec().equals("raw") && m.length() > 0));
    assertTrue(members.stream().anyMatch(m -> m.codec().equals("lz4")));
    assertTrue(members.stream().anyMatch(m -> m.length() == 0));
    assertTrue(members.stream().anyMatch(m -> !m.name().chars().allMatch(c -> c < 128)));
    assertTrue(members.stream().anyMatch(m -> m.name().codePoints().anyMatch(c -> c > 0xFFFF)));
    assertTrue(expected.longField("buckets") >= 3, "buckets");
    assertTrue(expected.longField("parts") >= 3, "parts");
    // Three generations: a delta layer and a tombstone layer above the base, three segments.
    assertEquals(3, expected.longField("generation"));
    assertEquals(3, expected.longField("layers"));
    assertEquals(3, expected.longField("namesSegments"));
    assertTrue(members.stream().noneMatch(m -> m.name().equals(GoldenArchive.DELETED)));
    assertTrue(members.stream().anyMatch(m -> m.name().equals(GoldenArchive.REPLACED)
        && m.mtime() >= GoldenArchive.APPEND_MTIME), "the replaced member is the new one");
    assertTrue(members.stream().anyMatch(m -> m.mtime() < GoldenArchive.APPEND_MTIME));
    if (version >= 3) {
      assertTrue(members.stream().anyMatch(m -> m.name().equals(GoldenArchive.CHUNKED)
          && m.codec().equals("raw")), "a raw member with chunk checksums");
    }
    if (version >= 4) {
      // Several access classes: setuid, setgid, sticky, read-only, a long owner name.
      List<String> classes = expected.fields().entrySet().stream()
          .filter(e -> e.getKey().startsWith("access.")).map(Map.Entry::getValue).toList();
      assertTrue(classes.size() >= 6, classes.toString());
      for (String mode : List.of("4755", "2750", "1644", "0444")) {
        assertTrue(classes.stream().anyMatch(c -> c.startsWith(mode + "\t")), mode);
      }
      assertTrue(classes.stream().anyMatch(c -> c.split("\t")[1].length() > 255), "long owner");
      assertEquals(members.size(), expected.accessIds().size(), "every member's class");
    }
  }

  /**
   * The public API reports each member's recorded owner, group and mode (format 4 on); members
   * of older archives report the archive directory's owner and group, and 0444.
   */
  @Test
  void membersReportTheirAccess() throws IOException {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(archive.toUri());
    org.apache.hadoop.fs.FileStatus directory = path.getFileSystem(conf).getFileStatus(path);
    String base = "hpf://file-" + path.toUri().getPath();
    org.apache.hadoop.fs.FileSystem hpf =
        new org.apache.hadoop.fs.Path(base + "/").getFileSystem(conf);
    try (org.hpf.ArchiveReader reader = org.hpf.HpfArchive.openReader(path, conf);
        org.hpf.MemberIterator listed = reader.list("")) {
      int seen = 0;
      while (listed.hasNext()) {
        org.hpf.MemberStatus member = listed.next();
        org.hpf.MemberAccess want = version >= 4 ? GoldenArchive.access(member.name())
            : new org.hpf.MemberAccess(directory.getOwner(), directory.getGroup(), 0444);
        assertEquals(want, member.access(), member.name() + " listed");
        assertEquals(want, reader.stat(member.name()).access(), member.name() + " stat");
        // hpf:// shows the recorded permission without write bits (older archives: 0444).
        org.apache.hadoop.fs.FileStatus status = hpf.getFileStatus(
            new org.apache.hadoop.fs.Path(base + "/" + member.name()));
        assertEquals(want.owner(), status.getOwner(), member.name());
        assertEquals(want.group(), status.getGroup(), member.name());
        assertEquals(want.mode() & 01555, status.getPermission().toShort(), member.name());
        seen++;
      }
      assertEquals(expected.members().size(), seen);
    }
  }

  @Test
  void goldenIndexCoversEmptyAndSingleKeyBucketsAndBothCodecs() throws IOException {
    // Empty buckets (no index file) and functions of a single key (sux4j builds one over a bit
    // vector of its own that needs special care to serialize; codec 3 stores no bit position),
    // in the base (codec 1, from format 7 codec 3) and in a fingerprinted layer (codec 2, 4).
    try (HpfReader reader = open()) {
      List<Integer> counts = reader.directory().buckets().stream()
          .map(b -> b.recordCount()).toList();
      // The directory's format is the same in both versions; version 1's names (hashed with
      // MurmurHash3) leave a bucket empty, version 2's (SHA-256) do not.
      assertTrue(version > 1 || counts.contains(0), counts.toString());
      assertTrue(counts.contains(1), counts.toString());
      assertTrue(counts.stream().anyMatch(c -> c > 1), counts.toString());
      assertEquals(3, reader.layers().size());
      boolean singleKeyCodec2 = false;
      boolean multiKeyCodec2 = false;
      for (int layer = 0; layer < reader.layers().size(); layer++) {
        for (var bucket : reader.layers().get(layer).buckets()) {
          if (bucket.recordCount() == 0) {
            assertEquals(new DirectoryFile.BucketRef(bucket.localDepth(), 0, 0, 0,
                0, 0), bucket, "an empty bucket has no index file");
            continue;
          }
          byte[] index = Files.readAllBytes(archive.resolve(bucket.indexFile()));
          int codec = index[FileHeader.SIZE + 10];
          // Format 7 writes hpf's own codecs, 3 and 4; the formats before it sux4j's.
          int base = version >= 7 ? BucketFunction.CODEC_DISTINGUISHING_BITS
              : BucketFunction.CODEC_HOLLOW_TRIE;
          assertEquals(layer == 0 ? base : base + 1, codec, bucket.indexFile());
          singleKeyCodec2 |= layer > 0 && bucket.recordCount() == 1;
          multiKeyCodec2 |= layer > 0 && bucket.recordCount() > 1;
        }
      }
      assertTrue(singleKeyCodec2, "a fingerprinted bucket of one key");
      assertTrue(multiKeyCodec2, "a fingerprinted bucket of several keys");
    }
  }

  @Test
  void everyMemberIsByteCorrect() throws IOException {
    try (HpfReader reader = open()) {
      assertEveryMemberReadsBack(reader);
    }
  }

  /**
   * The function only speeds lookups up: with every bucket's function section undecodable (its
   * checksums made right, so the damage is confined to the function), every member still reads
   * back byte for byte through a search of the sorted records, the reader warns once, and verify
   * reports each index file's function and no member.
   */
  @Test
  void everyMemberReadsBackWithEveryFunctionUndecodable() throws IOException {
    Path copy = copyOfGolden();
    int indexFiles = org.hpf.testing.IndexFunctionSurgery.rewriteAll(copy,
        (file, at, length) -> Arrays.fill(file, at, at + length, (byte) 0xA5));
    org.apache.hadoop.test.GenericTestUtils.LogCapturer log =
        org.apache.hadoop.test.GenericTestUtils.LogCapturer.captureLogs(
            org.slf4j.LoggerFactory.getLogger("org.hpf.internal.read.UnreadableFunctions"));
    try (HpfReader reader = HpfReader.open(new Configuration(),
        new org.apache.hadoop.fs.Path(copy.toUri()))) {
      assertEveryMemberReadsBack(reader);
    } finally {
      log.stopCapturing();
    }
    // One warning for the reader, however many buckets it searched.
    assertEquals(1, log.getOutput().split("the bucket's function cannot be used", -1).length - 1,
        log.getOutput());
    org.hpf.internal.read.ArchiveVerifier.Report report =
        org.hpf.internal.read.ArchiveVerifier.verify(new HadoopStorage(
            org.apache.hadoop.fs.FileSystem.getLocal(new Configuration()),
            new org.apache.hadoop.fs.Path(copy.toUri()), (short) 0),
            org.hpf.internal.read.ReaderOptions.defaults(), bytes -> { });
    assertEquals(expected.members().size(), report.members());
    assertEquals(indexFiles, report.problems().size(), report.problems().toString());
    for (String problem : report.problems()) {
      assertTrue(problem.startsWith("index-") && problem.contains("function cannot be used"),
          problem);
    }
  }

  private void assertEveryMemberReadsBack(HpfReader reader) throws IOException {
    for (GoldenArchive.ExpectedMember member : expected.members()) {
      String name = member.name();
      byte[] bytes = reader.get(name);
      assertEquals(member.length(), bytes.length, name);
      assertEquals(member.crc32c(), GoldenArchive.crc32c(bytes), name);
      assertEquals(member.sha256(), GoldenArchive.sha256(bytes), name);
      byte[] streamed;
      try (InputStream in = reader.open(name)) {
        streamed = in.readAllBytes();
      }
      assertArrayEquals(bytes, streamed, name);
      EntryStatus status = reader.stat(name);
      assertEquals(member.length(), status.length(), name);
      assertEquals(member.codec(), status.codec().toString(), name);
      assertEquals(member.mtime(), status.mtimeMillis(), name);
      assertTrue(reader.exists(name), name);
    }
    assertFalse(reader.exists("not-a-member"));
    assertThrows(FileNotInArchiveException.class, () -> reader.get("many/file-12"));
    // The deleted member: its base record is hidden by the tombstone.
    assertFalse(reader.exists(GoldenArchive.DELETED));
    assertThrows(FileNotInArchiveException.class, () -> reader.get(GoldenArchive.DELETED));
    assertThrows(FileNotInArchiveException.class, () -> reader.stat(GoldenArchive.DELETED));
    assertEquals(null, reader.record(GoldenArchive.DELETED));
    // The replaced member: the newer layer's record wins.
    assertArrayEquals(GoldenArchive.appended().get(GoldenArchive.REPLACED),
        reader.get(GoldenArchive.REPLACED));
  }

  @Test
  void membersAreTheGeneratorsInputs() throws IOException {
    // expected.txt and the generator agree, so the writer comparison below writes this archive.
    Map<String, byte[]> contents = GoldenArchive.finalContents(version);
    Map<String, Long> mtimes = GoldenArchive.finalMtimes(version);
    assertEquals(contents.size(), expected.members().size());
    for (GoldenArchive.ExpectedMember member : expected.members()) {
      byte[] bytes = contents.get(member.name());
      assertEquals(member.sha256(), GoldenArchive.sha256(bytes), member.name());
      assertEquals(mtimes.get(member.name()), member.mtime(), member.name());
    }
  }

  @Test
  void listingIsEveryNameInUtf8Order() throws IOException {
    List<String> names = new ArrayList<>();
    expected.members().forEach(m -> names.add(m.name()));
    List<String> sorted = new ArrayList<>(names);
    sorted.sort(MemberNames.ORDER);
    assertEquals(sorted, names, "expected.txt lists members in names-file order");
    try (HpfReader reader = open(); Stream<String> listed = reader.list()) {
      assertEquals(names, listed.toList());
    }
    List<NameEntry> entries = new ArrayList<>();
    // Format 4 on, each entry carries its member's access id (expected.txt's memberAccess).
    expected.members().forEach(m -> entries.add(new NameEntry(m.name(), false, m.length(),
        m.mtime(), null, expected.accessIds().getOrDefault(m.name(), 0))));
    try (HpfReader reader = open(); Stream<NameEntry> listed = reader.listEntries()) {
      assertEquals(entries, listed.map(NameEntry::withoutLocation).toList());
    }
  }

  @Test
  void manifestIsAsRecorded() throws IOException {
    try (HpfReader reader = open()) {
      Manifest manifest = reader.manifest();
      assertEquals(3, manifest.generation());
      assertEquals(3, reader.generation());
      assertEquals(expected.longField("generation"), manifest.generation());
      assertEquals(GoldenArchive.ID, manifest.archiveId());
      assertEquals(expected.field("archiveId"), manifest.archiveId().toString());
      assertEquals(hashAlgorithm(), manifest.hashAlgorithm());
      assertEquals(expected.longField("fileCount"), manifest.fileCount());
      assertEquals(expected.members().size(), manifest.fileCount());
      assertEquals(expected.longField("originalBytes"), manifest.originalBytes());
      assertEquals(expected.members().stream().mapToLong(GoldenArchive.ExpectedMember::length)
          .sum(), manifest.originalBytes());
      assertEquals(expected.longField("storedBytes"), manifest.storedBytes());
      assertEquals(expected.longField("bucketCapacity"), manifest.bucketCapacity());
      assertEquals(expected.longField("blockSize"), manifest.blockSize());
      assertEquals(expected.longField("partSize"), manifest.partSize());
      assertEquals(expected.longField("parts"), manifest.parts().size());
      if (version == 1) {
        assertEquals(List.of(ArchiveLayout.directory(1), ArchiveLayout.directory(2),
            ArchiveLayout.directory(3)),
            manifest.layers().stream().map(Manifest.Layer::directoryFile).toList());
      } else { // the manifest carries the directories
        assertTrue(manifest.layers().stream().allMatch(l -> l.directoryFile() == null
            && l.directory() != null), manifest.layers().toString());
      }
      assertEquals(List.of(ArchiveLayout.names(1, 0), ArchiveLayout.names(2, 0),
          ArchiveLayout.names(3, 0)),
          manifest.namesSegments().stream().map(Manifest.NamesSegment::file).toList());
      long created = GoldenArchive.contents(version).size();
      assertEquals(List.of(created, 5L, 1L),
          manifest.layers().stream().map(Manifest.Layer::records).toList());
      assertEquals(List.of(created, 5L, 1L),
          manifest.namesSegments().stream().map(Manifest.NamesSegment::entries).toList());
      assertEquals(expected.longField("buckets"), reader.directory().buckets().size());
      assertEquals(expected.longField("globalDepth"), reader.directory().globalDepth());
      for (Manifest.PartInfo part : manifest.parts()) {
        assertEquals(Files.size(archive.resolve(ArchiveLayout.part(part.id()))), part.length());
      }
      // The whole description, as the generator wrote it (comments aside; the LZ4
      // implementation is that of the writer, not of this reader).
      GoldenArchive.Expected described = GoldenArchive.parse(GoldenArchive.describe(reader));
      described.fields().put(GoldenArchive.LZ4_COMPRESSOR,
          expected.field(GoldenArchive.LZ4_COMPRESSOR));
      assertEquals(expected, described);
    }
  }

  /** The kept generations: the writer's retention of 2 removed generation 1's manifest. */
  @Test
  void theArchiveHoldsExactlyTheFilesOfTheKeptGenerations() throws IOException {
    Map<String, byte[]> files = files(archive);
    HadoopStorage storage = new HadoopStorage(
        org.apache.hadoop.fs.FileSystem.getLocal(new Configuration()),
        new org.apache.hadoop.fs.Path(archive.toUri()), (short) 0);
    Set<String> named = new java.util.TreeSet<>();
    for (long generation : new long[] {2, 3}) {
      Manifest manifest = Manifest.read(storage, generation);
      named.add(Manifest.fileName(generation));
      manifest.layers().stream().map(Manifest.Layer::directoryFile)
          .filter(java.util.Objects::nonNull).forEach(named::add);
      manifest.namesSegments().forEach(s -> named.add(s.file()));
      manifest.parts().forEach(p -> named.add(ArchiveLayout.part(p.id())));
      for (var directory : manifest.readDirectories(storage)) {
        for (var bucket : directory.buckets()) {
          if (bucket.recordCount() > 0) {
            named.add(bucket.indexFile());
          }
        }
      }
    }
    assertEquals(named, files.keySet());
  }

  @Test
  void everyFileHasItsKindsVersionAndAValidFooter() throws IOException {
    Map<String, byte[]> files = files(archive);
    assertTrue(files.size() > 20, files.keySet().toString());
    for (Map.Entry<String, byte[]> file : files.entrySet()) {
      String name = file.getKey();
      byte[] bytes = file.getValue();
      FileKind kind = kindOf(name);
      // The version byte itself, then the full header check (magic, kind, version, id).
      assertEquals(versionOf(kind), bytes[5], name + " version");
      assertEquals(kind.code(), bytes[4], name + " kind");
      assertEquals(GoldenArchive.ID, FileHeader.check(ByteBuffer.wrap(bytes), name, kind,
          GoldenArchive.ID), name);
      FileFooter.check(bytes, name);
    }
  }

  // ---------------------------------------------------------------- the documented layout

  /** An entry of a part, parsed by the layout alone. */
  private record Entry(String name, int part, long offset, long entryLength, int flags,
      long originalLength, long mtime) {}

  /**
   * A record of an index file, parsed by the layout alone (flags as in version 1, 0x80 for a
   * tombstone; mtime -1 where the version has none).
   */
  private record Record(String hash, int part, int flags, long offset, long entryLength,
      long originalLength, long mtime, int access) {
    Record(String hash, int part, int flags, long offset, long entryLength,
        long originalLength, long mtime) {
      this(hash, part, flags, offset, entryLength, originalLength, mtime, 0);
    }

    Record withAccess(int id) {
      return new Record(hash, part, flags, offset, entryLength, originalLength, mtime, id);
    }

    boolean tombstone() {
      return flags == 0x80;
    }
  }

  /** A bucket of a directory file. */
  private record Bucket(int localDepth, long indexGeneration, int bucketId, int recordCount,
      int functionLength, long indexFileLength) {}

  /**
   * A manifest parsed by the layout alone; {@code directories} are the layers' directory files
   * (version 1) or keys of {@code bodies}, the directories the manifest carries (version 2).
   */
  private record ParsedManifest(long generation, long fileCount, long originalBytes,
      long storedBytes, int bucketCapacity, long blockSize, long partSize,
      List<String> directories, List<Long> layerRecords, List<String> segments,
      List<Long> segmentEntries, Map<Integer, long[]> parts, Map<String, byte[]> bodies,
      List<org.hpf.MemberAccess> accesses) {}

  private static String string16(ByteBuffer buf) {
    byte[] bytes = new byte[buf.getShort() & 0xFFFF];
    buf.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private ParsedManifest parseManifest(String file, byte[] bytes) {
    // Manifest --> Header, Generation, CommitTimeMillis, HashAlgorithm, FileCount,
    //   OriginalBytes, StoredBytes, BucketCapacity, BlockSize, PartSize, LayerCount, Layer^n,
    //   SegmentCount, Segment^n, PartCount, Part^n, Footer
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    buf.position(FileHeader.SIZE);
    long generation = buf.getLong();
    assertEquals(file, Manifest.fileName(generation), "Generation");
    long commitTime = buf.getLong();
    assertTrue(commitTime > GoldenArchive.APPEND_MTIME, "CommitTimeMillis " + commitTime);
    assertEquals(hashAlgorithm(), buf.get(), "HashAlgorithm");
    long fileCount = buf.getLong();
    long originalBytes = buf.getLong();
    long storedBytes = buf.getLong();
    int capacity = buf.getInt();
    long blockSize = buf.getLong();
    long partSize = buf.getLong();
    int layerCount = buf.getInt();
    assertTrue(layerCount >= 1, "LayerCount");
    List<String> directories = new ArrayList<>();
    List<Long> layerRecords = new ArrayList<>();
    Map<String, byte[]> bodies = new HashMap<>();
    for (int i = 0; i < layerCount; i++) {
      if (version == 1) { // Layer --> DirectoryFile:String16, Records:int64
        directories.add(string16(buf));
        layerRecords.add(buf.getLong());
      } else { // Layer --> Records:int64, DirectoryLength:int32, the directory's body
        layerRecords.add(buf.getLong());
        byte[] body = new byte[buf.getInt()];
        buf.get(body);
        String key = "layer of " + java.util.HexFormat.of().formatHex(body);
        directories.add(key);
        bodies.put(key, body);
      }
    }
    int segmentCount = buf.getInt();
    List<String> segments = new ArrayList<>();
    List<Long> segmentEntries = new ArrayList<>();
    for (int i = 0; i < segmentCount; i++) {
      segments.add(string16(buf));
      segmentEntries.add(buf.getLong());
    }
    int partCount = buf.getInt();
    Map<Integer, long[]> parts = new TreeMap<>();
    for (int i = 0; i < partCount; i++) {
      parts.put(buf.getInt(), new long[] {buf.getLong(), buf.getLong(), buf.getLong()});
    }
    // Version 4: AccessCount:int32, Access^n; Access --> Owner:String16, Group:String16,
    // Permission:uint16.
    List<org.hpf.MemberAccess> accesses = new ArrayList<>();
    if (version >= 4) {
      int accessCount = buf.getInt();
      for (int i = 0; i < accessCount; i++) {
        accesses.add(new org.hpf.MemberAccess(string16(buf), string16(buf),
            buf.getShort() & 0xFFFF));
      }
      assertEquals(accessCount, new HashSet<>(accesses).size(), file + ": classes distinct");
    }
    // Version 5: PartIdFloor:int32 (above every part id), CommitId:int64 (random, not 0).
    if (version >= 5) {
      int floor = buf.getInt();
      assertTrue(parts.keySet().stream().allMatch(id -> id < floor), file + ": PartIdFloor "
          + floor + " above the parts " + parts.keySet());
      assertTrue(buf.getLong() != 0, file + ": CommitId");
    }
    // Version 6: BaseCommitId:int64 (the commit id of the generation built on; 0 for the first).
    if (version >= 6) {
      long baseCommitId = buf.getLong();
      assertTrue(generation == 1 || baseCommitId != 0, file + ": BaseCommitId");
    }
    assertEquals(bytes.length - FileFooter.SIZE, buf.position(), file + " ends at its footer");
    return new ParsedManifest(generation, fileCount, originalBytes, storedBytes, capacity,
        blockSize, partSize, directories, layerRecords, segments, segmentEntries, parts, bodies,
        accesses);
  }

  /**
   * Parses parts, manifests, directories, index files and names segments by the byte layout of
   * docs/FORMAT.md alone (not with the reader's codecs) and checks them against each other, the
   * generator's inputs and expected.txt; then resolves each kept generation's members from the
   * layers (newest record wins, tombstones delete) and its listing from the segments (newest
   * entry wins, deletions hide).
   */
  @Test
  void filesFollowTheDocumentedLayout() throws IOException {
    widths.clear();
    Map<String, byte[]> files = files(archive);
    // Every input ever merged, by name and mtime: generation 1's and generation 2's.
    Map<String, byte[]> inputs = new HashMap<>();
    int i = 0;
    for (Map.Entry<String, byte[]> e : GoldenArchive.contents(version).entrySet()) {
      inputs.put(e.getKey() + "\t" + GoldenArchive.mtime(i++), e.getValue());
    }
    i = 0;
    for (Map.Entry<String, byte[]> e : GoldenArchive.appended().entrySet()) {
      inputs.put(e.getKey() + "\t" + GoldenArchive.appendMtime(i++), e.getValue());
    }
    Map<String, String> byHash = new HashMap<>();
    for (String key : inputs.keySet()) {
      String name = key.substring(0, key.indexOf('\t'));
      byHash.put(NameHasher.forAlgorithm(hashAlgorithm()).hash(name).toString(), name);
    }

    // Part --> Header, PartId:int32, Entry^n, Footer
    Map<String, Entry> entries = new HashMap<>(); // by part and offset
    Set<String> merged = new HashSet<>(); // name TAB mtime of every entry
    int chunkedEntries = 0;
    for (Map.Entry<String, byte[]> file : files.entrySet()) {
      if (kindOf(file.getKey()) != FileKind.PART) {
        continue;
      }
      byte[] part = file.getValue();
      ByteBuffer buf = ByteBuffer.wrap(part);
      int partId = buf.getInt(FileHeader.SIZE);
      assertEquals(ArchiveLayout.part(partId), file.getKey());
      int at = FileHeader.SIZE + 4;
      while (at < part.length - FileFooter.SIZE) {
        buf.position(at);
        assertEquals(0x48504645, buf.getInt(), "EntryMagic at " + at);
        int flags = buf.get() & 0xFF;
        int layout = buf.get();
        int nameLength = buf.getShort() & 0xFFFF;
        long originalLength = buf.getLong();
        long storedLength = buf.getLong();
        long mtime = buf.getLong();
        // Layout (Reserved, 0, before format 3): 1 for raw members over 1 MiB, else 0.
        boolean chunked = version >= 3 && flags == 0 && originalLength > (1 << 20);
        assertEquals(chunked ? 1 : 0, layout, "Layout at " + at);
        chunkedEntries += chunked ? 1 : 0;
        String name = new String(part, buf.position(), nameLength, StandardCharsets.UTF_8);
        buf.position(buf.position() + nameLength);
        assertEquals(crc32c(part, at, 36 - 4 + nameLength), buf.getInt(), "HeaderChecksum");
        int storedAt = buf.position();
        buf.position(storedAt + (int) storedLength);
        long table = 0;
        if (chunked) { // ChunkChecksum^ceil(StoredLength / 65536): CRC32C of each chunk
          for (long from = 0; from < storedLength; from += 65536) {
            int n = (int) Math.min(65536, storedLength - from);
            assertEquals(crc32c(part, storedAt + (int) from, n), buf.getInt(),
                name + " chunk at " + from);
            table += 4;
          }
        }
        int contentChecksum = buf.getInt();
        String key = name + "\t" + mtime;
        byte[] input = inputs.get(key);
        assertTrue(input != null, "entry of no input: " + key);
        assertTrue(merged.add(key), "two entries of " + key);
        assertEquals(input.length, originalLength, name);
        assertTrue(flags == 0 || flags == 1, name + " flags " + flags);
        assertEquals(GoldenArchive.crc32c(input), String.format("%08x", contentChecksum), name);
        if (flags == 0) {
          assertEquals(originalLength, storedLength, name);
          assertArrayEquals(input, Arrays.copyOfRange(part, storedAt, storedAt + (int) storedLength),
              name);
        } else {
          assertTrue(storedLength <= originalLength - originalLength / 8, name);
        }
        long entryLength = 36 + nameLength + storedLength + table + 4;
        assertEquals(at + entryLength, buf.position());
        entries.put(partId + "@" + at, new Entry(name, partId, at, entryLength, flags,
            originalLength, mtime));
        at = buf.position();
      }
      assertEquals(part.length - FileFooter.SIZE, at, file.getKey());
    }
    assertEquals(inputs.keySet(), merged, "every input merged once, none other");
    assertEquals(version >= 3 ? 1 : 0, chunkedEntries, "entries with chunk checksums");

    // Index --> Header, IndexHeader, FunctionBytes, FunctionChecksum, Record^n, Footer, as the
    // directories of both kept manifests name them.
    Map<String, ParsedManifest> manifests = new TreeMap<>();
    for (String file : files.keySet()) {
      if (kindOf(file) == FileKind.MANIFEST) {
        manifests.put(file, parseManifest(file, files.get(file)));
      }
    }
    assertEquals(Set.of(Manifest.fileName(2), Manifest.fileName(3)), manifests.keySet());
    Map<String, List<Record>> layers = new HashMap<>(); // directory file -> its records
    for (ParsedManifest manifest : manifests.values()) {
      for (int layer = 0; layer < manifest.directories().size(); layer++) {
        String directory = manifest.directories().get(layer);
        if (!layers.containsKey(directory)) {
          byte[] body = manifest.bodies().get(directory);
          if (body == null) { // a directory file: its body is between header and footer
            byte[] file = files.get(directory);
            assertTrue(file != null, "missing " + directory);
            body = Arrays.copyOfRange(file, FileHeader.SIZE, file.length - FileFooter.SIZE);
          }
          layers.put(directory, parseLayer(files, directory, body, manifest.generation(),
              layer == 0, entries, byHash));
        }
        assertEquals(manifest.layerRecords().get(layer),
            (long) layers.get(directory).size(), directory + " Records");
      }
    }

    if (version >= 4) { // buckets of one class (no ids) and of several (one byte each)
      assertEquals(Set.of(0, 1), widths, "access widths");
    }

    // Names --> Header, Block^m, EndBlock, TotalCount, Footer
    Map<String, List<NameEntry>> segments = new HashMap<>();
    for (ParsedManifest manifest : manifests.values()) {
      for (int s = 0; s < manifest.segments().size(); s++) {
        String segment = manifest.segments().get(s);
        segments.computeIfAbsent(segment, f -> parseSegment(f, files.get(f)));
        assertEquals(manifest.segmentEntries().get(s), (long) segments.get(segment).size(),
            segment + " Entries");
      }
    }
    assertTrue(segments.values().stream().flatMap(List::stream).anyMatch(NameEntry::deleted),
        "a deletion entry");

    // Each kept generation: resolve members from its layers and listing from its segments.
    checkGeneration(manifests.get(Manifest.fileName(3)), layers, segments, entries,
        GoldenArchive.finalContents(version), GoldenArchive.finalMtimes(version), files);
    checkGeneration(manifests.get(Manifest.fileName(2)), layers, segments, entries,
        generation2Contents(), generation2Mtimes(), files);
    // And generation 3's listing is expected.txt's.
    List<String> names = expected.members().stream().map(GoldenArchive.ExpectedMember::name)
        .toList();
    assertEquals(names, new ArrayList<>(resolveListing(manifests.get(Manifest.fileName(3)),
        segments).keySet()));
  }

  /**
   * Parses a directory's body and the index files of its buckets; returns the layer's records.
   */
  private List<Record> parseLayer(Map<String, byte[]> files, String directoryFile,
      byte[] directory, long manifestGeneration, boolean base, Map<String, Entry> entries,
      Map<String, String> byHash) {
    // Directory --> Header, GlobalDepth, BucketCount, Bucket^n, Slot^(2^GlobalDepth), Footer;
    // a version 2 manifest carries the body alone.
    ByteBuffer buf = ByteBuffer.wrap(directory);
    int globalDepth = buf.get();
    int bucketCount = buf.getInt();
    List<Bucket> buckets = new ArrayList<>();
    for (int b = 0; b < bucketCount; b++) {
      buckets.add(new Bucket(buf.get(), buf.getLong(), buf.getInt(), buf.getInt(), buf.getInt(),
          buf.getLong()));
    }
    int[] slots = new int[1 << globalDepth];
    Map<Integer, Integer> prefixes = new HashMap<>();
    for (int slot = 0; slot < slots.length; slot++) {
      slots[slot] = buf.getInt();
      Bucket bucket = buckets.get(slots[slot]);
      int prefix = slot & ((1 << bucket.localDepth()) - 1);
      assertEquals(prefix, (int) prefixes.computeIfAbsent(slots[slot], k -> prefix),
          directoryFile + " slot " + slot);
    }
    assertEquals(directory.length, buf.position(), directoryFile);
    assertEquals(bucketCount, prefixes.size(), "every bucket has slots");
    // A directory file names the generation that wrote it; a carried one, the generation of
    // its newest index files (a delta layer's are all its own).
    long generation = version == 1
        ? Long.parseLong(directoryFile.substring("directory-".length()))
        : buckets.stream().mapToLong(Bucket::indexGeneration).max().orElseThrow();
    assertTrue(generation <= manifestGeneration, directoryFile);
    List<Record> records = new ArrayList<>();
    for (int b = 0; b < bucketCount; b++) {
      Bucket bucket = buckets.get(b);
      if (bucket.recordCount() == 0) {
        assertEquals(new Bucket(bucket.localDepth(), 0, 0, 0, 0, 0), bucket,
            directoryFile + ": an empty bucket has zero fields");
        continue;
      }
      String indexFile = String.format("index-%010d-%06d", bucket.indexGeneration(),
          bucket.bucketId());
      assertTrue(bucket.indexGeneration() <= generation, indexFile);
      if (!base) {
        assertEquals(generation, bucket.indexGeneration(), "a delta layer's own index files");
      }
      byte[] index = files.get(indexFile);
      assertTrue(index != null, "missing " + indexFile);
      assertEquals(bucket.indexFileLength(), index.length, indexFile + " IndexFileLength");
      // Format 7 writes codecs 3 (base) and 4; earlier formats 1 and 2.
      int codec = (version >= 7 ? BucketFunction.CODEC_DISTINGUISHING_BITS
          : BucketFunction.CODEC_HOLLOW_TRIE) + (base ? 0 : 1);
      records.addAll(parseIndex(indexFile, index, bucket, prefixes.get(b), codec, entries,
          byHash));
    }
    return records;
  }

  private List<Record> parseIndex(String file, byte[] index, Bucket bucket, int prefix,
      int codec, Map<String, Entry> entries, Map<String, String> byHash) {
    ByteBuffer buf = ByteBuffer.wrap(index);
    buf.position(FileHeader.SIZE);
    int count = buf.getInt();
    assertEquals(bucket.recordCount(), count, file + " RecordCount");
    assertEquals(bucket.localDepth(), buf.get(), file + " LocalDepth");
    assertEquals(prefix, buf.getInt(), file + " Prefix");
    assertEquals(40, buf.get(), "RecordSize");
    assertEquals(codec, buf.get(), file + " FunctionCodec");
    int functionLength = buf.getInt();
    assertEquals(bucket.functionLength(), functionLength, file + " FunctionLength");
    // Version 3 index files (format 4): AccessWidth:uint8, CommonAccess:uint16.
    int headerSize = version >= 4 ? 18 : 15;
    int width = version >= 4 ? buf.get() : 0;
    int common = version >= 4 ? buf.getShort() & 0xFFFF : 0;
    assertTrue(width >= 0 && width <= 2 && (width == 0 || common == 0), file + " AccessWidth");
    widths.add(width);
    int functionAt = FileHeader.SIZE + headerSize;
    int sectionEnd = functionAt + functionLength;
    assertEquals(crc32c(index, FileHeader.SIZE, headerSize + functionLength),
        buf.getInt(sectionEnd), "FunctionChecksum");
    int recordsOffset = sectionEnd + 4;
    // Version 2: groups of 32 records, each followed by the CRC32C of its records (and, with
    // an access width, of the group's access ids, which follow its records).
    int groups = (count + 31) / 32;
    int groupBytes = 32 * (40 + width) + 4;
    assertEquals(recordsOffset + (40 + width) * count + (version == 1 ? 0 : 4 * groups)
        + FileFooter.SIZE, index.length, file);
    if (version > 1) {
      for (int g = 0; g < groups; g++) {
        int start = recordsOffset + groupBytes * g;
        int length = (40 + width) * Math.min(32, count - 32 * g);
        assertEquals(crc32c(index, start, length), buf.getInt(start + length),
            file + " GroupChecksum " + g);
      }
    }
    boolean fingerprints = codec == 2 || codec == 4;
    if (codec <= 2) {
      // Codec 1: a Java serialization stream (magic 0xACED, stream version 5). Codec 2: its
      // length, the same stream, one 16-bit fingerprint per record.
      int serializedAt = functionAt;
      if (codec == 2) {
        int serialized = buf.getInt(functionAt);
        assertEquals(functionLength, 4 + serialized + 2 * count, file + " SerializedLength");
        serializedAt += 4;
      }
      assertEquals((short) 0xACED, buf.getShort(serializedAt), file + " serialization magic");
      assertEquals(5, buf.getShort(serializedAt + 2), file + " serialization version");
    }
    List<byte[]> hashes = new ArrayList<>();
    List<Record> records = new ArrayList<>();
    String previous = null;
    for (int r = 0; r < count; r++) {
      int at = version == 1 ? recordsOffset + 40 * r
          : recordsOffset + groupBytes * (r / 32) + 40 * (r % 32);
      String hash = java.util.HexFormat.of().formatHex(index, at, at + 16);
      hashes.add(Arrays.copyOfRange(index, at, at + 16));
      assertTrue(previous == null || previous.compareTo(hash) < 0, "records in H order");
      previous = hash;
      long lo = buf.getLong(at + 8);
      assertEquals(prefix, (int) (lo & ((1L << bucket.localDepth()) - 1)), "Prefix");
      if (fingerprints) {
        int fingerprintAt = sectionEnd - 2 * count + 2 * r;
        // Bits 63..48 of H's second 8 bytes.
        assertEquals(buf.getShort(at + 8), buf.getShort(fingerprintAt), file + " Fingerprint " + r);
      }
      Record record = version == 1 ? recordV1(file, index, at) : recordV2(index, at);
      if (width > 0) { // AccessId^k after the group's k records, big-endian
        int inGroup = Math.min(32, count - 32 * (r / 32));
        int idAt = recordsOffset + groupBytes * (r / 32) + 40 * inGroup + width * (r % 32);
        record = record.withAccess((int) unsigned(index, idAt, width));
      } else {
        record = record.withAccess(common);
      }
      String name = byHash.get(hash);
      assertTrue(name != null, "record of an unknown hash " + hash);
      if (record.flags() >= 0x80) {
        assertEquals(new Record(hash, 0, 0x80, 0, 0, 0, -1), record,
            "a tombstone's exact form (access id 0)");
        assertTrue(fingerprints, "the base keeps no tombstones");
      } else {
        Entry entry = entries.get(record.part() + "@" + record.offset());
        assertTrue(entry != null, file + ": record of " + name + " points at no entry");
        assertEquals(name, entry.name(), name + " Part and Offset");
        assertEquals(entry.flags(), record.flags(), name + " Flags");
        assertEquals(entry.entryLength(), record.entryLength(), name + " EntryLength");
        assertEquals(entry.originalLength(), record.originalLength(), name + " OriginalLength");
        if (version > 1) {
          assertEquals(entry.mtime(), record.mtime(), name + " MTimeMillis");
        }
      }
      records.add(record);
    }
    if (codec >= 3) {
      assertDistinguishingBits(file, index, functionAt, functionLength - (fingerprints ? 2 * count
          : 0), hashes);
    }
    return records;
  }

  /**
   * Codec 3 --> Base:uint8, Nibble^(RecordCount - 1) two to a byte (high half first, a 0 after
   * an odd last one), EscapedPosition:uint8 for each nibble 15, in order: the positions are
   * where neighbouring records' H first differ, each Base + its nibble unless escaped, and Base
   * is the lowest whose 15 values hold the most positions (the writer's rule).
   */
  private static void assertDistinguishingBits(String file, byte[] index, int at, int length,
      List<byte[]> hashes) {
    int[] positions = new int[hashes.size() - 1];
    int[] counts = new int[128];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = 128 - new java.math.BigInteger(1, hashes.get(i))
          .xor(new java.math.BigInteger(1, hashes.get(i + 1))).bitLength();
      counts[positions[i]]++;
    }
    int base = index[at] & 0xFF;
    int held = 0;
    int mostHeld = -1;
    int lowestBest = 0;
    for (int b = 0; b <= 113; b++) {
      int sum = 0;
      for (int v = 0; v < 15; v++) {
        sum += counts[b + v];
      }
      if (sum > mostHeld) {
        mostHeld = sum;
        lowestBest = b;
      }
      if (b == base) {
        held = sum;
      }
    }
    assertEquals(lowestBest, base, file + " Base");
    assertEquals(mostHeld, held);
    int escapedAt = at + 1 + positions.length / 2 + positions.length % 2;
    for (int i = 0; i < positions.length; i++) {
      int packed = index[at + 1 + i / 2] & 0xFF;
      int nibble = i % 2 == 0 ? packed >>> 4 : packed & 0xF;
      boolean inside = positions[i] >= base && positions[i] < base + 15;
      assertEquals(inside ? positions[i] - base : 15, nibble, file + " Nibble " + i);
      if (!inside) {
        assertEquals(positions[i], index[escapedAt++] & 0xFF, file + " EscapedPosition " + i);
      }
    }
    if (positions.length % 2 == 1) {
      assertEquals(0, index[at + positions.length / 2 + 1] & 0xF, file + " last nibble's pad");
    }
    assertEquals(at + length, escapedAt, file + " function length");
  }

  /**
   * RecordV1 --> H:16, Part:uint24, Flags:uint8, Offset:uint48, EntryLength:uint40,
   * OriginalLength:uint40, RecordChecksum.
   */
  private static Record recordV1(String file, byte[] index, int at) {
    assertEquals(crc32c(index, at, 36), ByteBuffer.wrap(index).getInt(at + 36),
        file + " RecordChecksum");
    return new Record(java.util.HexFormat.of().formatHex(index, at, at + 16),
        (int) unsigned(index, at + 16, 3), index[at + 19] & 0xFF, unsigned(index, at + 20, 6),
        unsigned(index, at + 26, 5), unsigned(index, at + 31, 5), -1);
  }

  /**
   * RecordV2 --> H:16, PartFlags:uint24 (part above 3 bits of flags, 4 a tombstone),
   * Offset:uint40, EntryLength:uint40, OriginalLength:uint40, MTimeMillis:int48 (-2^47 none).
   */
  private static Record recordV2(byte[] index, int at) {
    long partFlags = unsigned(index, at + 16, 3);
    int flags = (int) (partFlags & 7);
    long mtime = unsigned(index, at + 34, 6) << 16 >> 16;
    if (flags == 4) {
      assertEquals(-(1L << 47), mtime, "a tombstone has no time");
      flags = 0x80;
      mtime = -1;
    }
    return new Record(java.util.HexFormat.of().formatHex(index, at, at + 16),
        (int) (partFlags >>> 3), flags, unsigned(index, at + 19, 5), unsigned(index, at + 24, 5),
        unsigned(index, at + 29, 5), mtime);
  }

  private List<NameEntry> parseSegment(String file, byte[] names) {
    assertTrue(names != null, "missing " + file);
    ByteBuffer buf = ByteBuffer.wrap(names);
    buf.position(FileHeader.SIZE);
    List<NameEntry> entries = new ArrayList<>();
    int count;
    while ((count = buf.getInt()) != 0) {
      int start = buf.position() - 4;
      int byteLength = buf.getInt();
      for (int i = 0; i < count; i++) {
        int op = buf.get();
        byte[] name = new byte[buf.getShort()];
        buf.get(name);
        long length = buf.getLong();
        long mtime = buf.getLong();
        // Version 2 adds Op 3 (no location) and a location to Op 1.
        assertTrue(op == 1 || op == 2 || (op == 3 && version > 1), file + " Op " + op);
        if (op == 2) {
          assertEquals(0, length, "a deletion's Length");
          assertEquals(0, mtime, "a deletion's MTimeMillis");
        }
        EntryLocation location = null;
        if (op == 1 && version > 1) {
          // Location --> Part:uint24, Flags:uint8, Offset:uint40, EntryLength:uint40
          int at = buf.position();
          location = new EntryLocation((int) unsigned(names, at, 3),
              names[at + 3] & 0xFF, unsigned(names, at + 4, 5), unsigned(names, at + 9, 5));
          buf.position(at + 14);
        }
        // Version 3 (format 4): a present member's AccessId:uint16 ends its entry.
        int access = op != 2 && version >= 4 ? buf.getShort() & 0xFFFF : 0;
        NameEntry entry = new NameEntry(new String(name, StandardCharsets.UTF_8), op == 2, length,
            mtime, location, access);
        if (!entries.isEmpty()) {
          assertTrue(MemberNames.compare(entries.get(entries.size() - 1).name(), entry.name()) < 0,
              file + ": names in UTF-8 order, each once");
        }
        entries.add(entry);
      }
      assertEquals(start + 8 + byteLength, buf.position());
      assertEquals(crc32c(names, start, 8 + byteLength), buf.getInt(), "BlockChecksum");
    }
    assertEquals(entries.size(), buf.getLong(), "TotalCount");
    assertEquals(names.length - FileFooter.SIZE, buf.position());
    return entries;
  }

  /** A generation's names: its segments, oldest first, the newest entry of a name winning. */
  private static Map<String, NameEntry> resolveListing(ParsedManifest manifest,
      Map<String, List<NameEntry>> segments) {
    Map<String, NameEntry> listing = new TreeMap<>(MemberNames.ORDER);
    for (String segment : manifest.segments()) {
      for (NameEntry entry : segments.get(segment)) {
        listing.put(entry.name(), entry);
      }
    }
    listing.values().removeIf(NameEntry::deleted);
    return listing;
  }

  private void checkGeneration(ParsedManifest manifest, Map<String, List<Record>> layers,
      Map<String, List<NameEntry>> segments, Map<String, Entry> entries,
      Map<String, byte[]> contents, Map<String, Long> mtimes, Map<String, byte[]> files) {
    String g = "generation " + manifest.generation();
    assertEquals(GoldenArchive.BUCKET_CAPACITY, manifest.bucketCapacity(), g);
    assertEquals(GoldenArchive.BLOCK_SIZE, manifest.blockSize(), g);
    assertEquals(GoldenArchive.PART_SIZE, manifest.partSize(), g);
    // Members: the layers oldest first, a newer record replacing, a tombstone deleting.
    Map<String, Record> effective = new HashMap<>();
    for (String directory : manifest.directories()) {
      for (Record record : layers.get(directory)) {
        if (record.tombstone()) {
          assertTrue(effective.remove(record.hash()) != null, g + ": a tombstone deletes");
        } else {
          effective.put(record.hash(), record);
        }
      }
    }
    Map<String, long[]> live = new HashMap<>();
    long original = 0;
    long stored = 0;
    Set<String> names = new HashSet<>();
    for (Record record : effective.values()) {
      Entry entry = entries.get(record.part() + "@" + record.offset());
      names.add(entry.name());
      assertEquals(mtimes.get(entry.name()), entry.mtime(), g + ": the member's newest entry");
      assertEquals(contents.get(entry.name()).length, entry.originalLength(), entry.name());
      original += record.originalLength();
      stored += record.entryLength();
      long[] counts = live.computeIfAbsent("" + record.part(), k -> new long[2]);
      counts[0]++;
      counts[1] += record.entryLength();
    }
    assertEquals(contents.keySet(), names, g + " members");
    assertEquals(contents.size(), manifest.fileCount(), g + " FileCount");
    assertEquals(original, manifest.originalBytes(), g + " OriginalBytes");
    assertEquals(stored, manifest.storedBytes(), g + " StoredBytes");
    for (Map.Entry<Integer, long[]> part : manifest.parts().entrySet()) {
      long[] counts = live.getOrDefault("" + part.getKey(), new long[2]);
      byte[] file = files.get(ArchiveLayout.part(part.getKey()));
      assertEquals(file.length, part.getValue()[0], g + " part Length");
      assertEquals(counts[0], part.getValue()[1], g + " part LiveEntries");
      assertEquals(counts[1], part.getValue()[2], g + " part LiveBytes");
    }
    assertTrue(live.keySet().stream().allMatch(p -> manifest.parts().containsKey(
        Integer.parseInt(p))), g + ": records point into listed parts");
    // Listing: names, lengths and mtimes.
    Map<String, NameEntry> listing = resolveListing(manifest, segments);
    assertEquals(new java.util.TreeSet<>(contents.keySet()),
        new java.util.TreeSet<>(listing.keySet()), g + " listing");
    Map<String, Record> byName = new HashMap<>();
    for (Record record : effective.values()) {
      byName.put(entries.get(record.part() + "@" + record.offset()).name(), record);
    }
    for (NameEntry entry : listing.values()) {
      assertEquals(contents.get(entry.name()).length, entry.length(), entry.name());
      assertEquals(mtimes.get(entry.name()), entry.mtimeMillis(), entry.name());
      if (version > 1) {
        // Every member of a version 2 archive is located by its newest names entry.
        Record record = byName.get(entry.name());
        assertEquals(new EntryLocation(record.part(), record.flags(),
            record.offset(), record.entryLength()), entry.location(), g + " " + entry.name());
      }
      if (version >= 4) {
        // The record and the names entry agree on the class, which is the member's access.
        int id = byName.get(entry.name()).access();
        assertEquals(id, entry.access(), g + " " + entry.name() + " AccessId");
        assertTrue(id >= 1 && id <= manifest.accesses().size(), g + " " + entry.name());
        assertEquals(GoldenArchive.access(entry.name()), manifest.accesses().get(id - 1),
            g + " " + entry.name() + " access");
      }
    }
  }

  private static int crc32c(byte[] bytes, int offset, int length) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }

  private static long unsigned(byte[] bytes, int offset, int length) {
    long value = 0;
    for (int i = 0; i < length; i++) {
      value = value << 8 | (bytes[offset + i] & 0xFF);
    }
    return value;
  }
}
