package org.hpf.battery;

import static org.hpf.battery.ArchiveAssertions.assertArchiveHolds;
import static org.hpf.battery.ArchiveAssertions.assertMember;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.ArchiveExistsException;
import org.hpf.Compression;
import org.hpf.DuplicateNameException;
import org.hpf.FileNotInArchiveException;
import org.hpf.HashCollisionException;
import org.hpf.ProgressListener;
import org.hpf.SourceException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.Codec;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.NameHash;
import org.hpf.internal.format.NameHasher;
import org.hpf.internal.read.EntryStatus;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.CreateResult;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The round-trip and error battery of hpf-core, run unchanged on the local file system and on a
 * MiniDFSCluster by the subclasses. Every test writes real files, creates a real archive with
 * {@link ArchiveCreator} and reads it back with {@link HpfReader}.
 *
 * <p>Randomized content and names come from {@link Seeds}: {@code -Dhpf.test.seed=N} replays a
 * failing run; the seed is in every assertion message that depends on it.
 */
abstract class ArchiveBattery extends BatteryBase {
  ArchiveBattery(Place place) {
    super(place, "");
  }

  // ---- helpers -----------------------------------------------------------------------------

  protected Path archivePath(String label) {
    return new Path(archiveRoot(), label + ".hpf");
  }

  /** Writes {@code tree} to a new local folder and returns it as a source root. */
  protected Path localSources(TestTree tree, String label) throws IOException {
    java.nio.file.Path dir = tmp.resolve("src-" + label);
    tree.writeLocal(dir);
    return new Path(dir.toUri());
  }

  /** Writes {@code tree} to the archive's file system (HDFS, S3 on those variants). */
  protected Path sourcesOnArchiveFs(TestTree tree, String label) throws IOException {
    Path dir = new Path(archiveRoot(), "src-" + label);
    tree.writeTo(archiveFs(), dir);
    return dir;
  }

  protected CreateResult create(Path archive, List<Path> sources, WriterOptions options)
      throws IOException {
    return ArchiveCreator.create(conf(), archive, sources, options);
  }

  protected CreateResult create(Path archive, Path source, WriterOptions options)
      throws IOException {
    return create(archive, List.of(source), options);
  }

  protected HpfReader open(Path archive) throws IOException {
    return HpfReader.open(conf(), archive);
  }

  protected HpfReader open(Path archive, NameHasher hasher) throws IOException {
    return HpfReader.open(archive.getFileSystem(conf()), archive, new ReaderOptions(hasher));
  }

  private static WriterOptions.Builder options() {
    return WriterOptions.builder();
  }

  /** The create failed and left nothing where the archive was to be. */
  protected void assertNoArchive(Path archive) throws IOException {
    assertFalse(archiveFs().exists(archive), "a failed create left " + archive + " behind: "
        + describeTree(archive));
  }

  private String describeTree(Path dir) throws IOException {
    List<String> names = new ArrayList<>();
    if (archiveFs().exists(dir)) {
      var it = archiveFs().listFiles(dir, true);
      while (it.hasNext()) {
        names.add(it.next().getPath().getName());
      }
    }
    return names.toString();
  }

  /**
   * After a successful create the archive directory holds exactly the committed files: manifest
   * (which carries the directory), names, one index file per bucket, the manifest's parts at
   * their lengths, and no lock, journal or temporary file.
   */
  protected void assertCommittedFiles(Path archive, HpfReader reader) throws IOException {
    FileSystem fs = archiveFs();
    Manifest manifest = reader.manifest();
    Map<String, Long> expected = new TreeMap<>();
    expected.put(Manifest.fileName(1), null);
    expected.put(ArchiveLayout.names(1, 0), null);
    assertEquals(1, manifest.layers().size(), "a create writes one index layer");
    assertEquals(1, manifest.namesSegments().size(), "a create writes one names segment");
    for (BucketRef bucket : reader.directory().buckets()) {
      if (bucket.recordCount() == 0) {
        // An empty bucket has no index file.
        assertEquals(new BucketRef(bucket.localDepth(), 0, 0, 0, 0, 0), bucket, "empty bucket");
      } else {
        expected.put(bucket.indexFile(), bucket.indexFileLength());
      }
    }
    for (Manifest.PartInfo part : manifest.parts()) {
      expected.put(ArchiveLayout.part(part.id()), part.length());
    }
    Map<String, Long> actual = new TreeMap<>();
    for (FileStatus status : fs.listStatus(archive)) {
      if (status.isDirectory()) {
        for (FileStatus inner : fs.listStatus(status.getPath())) {
          actual.put(status.getPath().getName() + "/" + inner.getPath().getName(),
              inner.getLen());
        }
      } else {
        actual.put(status.getPath().getName(), status.getLen());
      }
    }
    assertEquals(expected.keySet(), actual.keySet(), "files of " + archive);
    for (Map.Entry<String, Long> e : expected.entrySet()) {
      if (e.getValue() != null) {
        assertEquals(e.getValue(), actual.get(e.getKey()), "length of " + e.getKey());
      }
    }
  }

  /** A random tree of {@code count} small files (sizes skewed to the tiny) of depth 1..5. */
  protected TestTree smallTree(int count, int maxSize) {
    TestTree tree = new TestTree();
    Random r = random;
    while (tree.size() < count) {
      int size = r.nextInt(4) == 0 ? r.nextInt(maxSize + 1) : r.nextInt(Math.min(64, maxSize) + 1);
      tree.add(TestTree.name(r, 1 + r.nextInt(5)), TestTree.content(r, size), TestTree.mtime(r));
    }
    return tree;
  }

  /** A tree of {@code count} files named f0000.. with a few bytes each: fast to write. */
  protected TestTree plainTree(int count) {
    TestTree tree = new TestTree();
    for (int i = 0; i < count; i++) {
      String name = String.format("d%02d/f%05d", i % 13, i);
      tree.addOrFail(name, TestTree.content(random, random.nextInt(40)), TestTree.mtime(random));
    }
    return tree;
  }

  private static void assertNotFound(HpfReader reader, String name) throws IOException {
    String what = "'" + escape(name) + "' " + Seeds.describe();
    assertFalse(reader.exists(name), "exists " + what);
    assertThrows(FileNotInArchiveException.class, () -> reader.get(name), "get " + what);
    assertThrows(FileNotInArchiveException.class, () -> reader.open(name), "open " + what);
    assertThrows(FileNotInArchiveException.class, () -> reader.stat(name), "stat " + what);
  }

  private static String escape(String name) {
    StringBuilder sb = new StringBuilder();
    for (char c : name.length() > 80 ? (name.substring(0, 80) + "...").toCharArray()
        : name.toCharArray()) {
      sb.append(c < 0x20 || Character.isSurrogate(c) ? String.format("\\u%04X", (int) c) : c);
    }
    return sb.toString();
  }

  // ---- 1. round trips ----------------------------------------------------------------------

  /**
   * Sizes 0, 1, 2, tiny, around 4 KiB, 64 KiB, around 1 MiB (where open() switches from a
   * buffered get to a streaming read of raw members), and larger; random (incompressible) and
   * text (compressible) content; every member back through get, open, stat, exists and list.
   */
  @Test
  void roundTripOfRandomTree() throws IOException {
    Random r = random;
    TestTree tree = new TestTree();
    int[] special = {0, 1, 2, 3, 15, 16, 17, 255, 256, 4095, 4096, 4097, 65536,
        (1 << 20) - 1, 1 << 20, (1 << 20) + 1};
    for (int size : special) {
      tree.addOrFail("special/random-" + size, TestTree.randomBytes(r, size), TestTree.mtime(r));
      tree.addOrFail("special/text-" + size, TestTree.text(r, size), TestTree.mtime(r));
    }
    tree.addOrFail("empty-at-root", new byte[0], TestTree.mtime(r));
    tree.addOrFail("zeros/4k", new byte[4096], TestTree.mtime(r));
    int large = pick(3 << 20, (3 << 20) / 2);
    tree.addOrFail("large/random", TestTree.randomBytes(r, large), TestTree.mtime(r));
    tree.addOrFail("large/text", TestTree.text(r, large), TestTree.mtime(r));
    int count = tree.size() + pick(400, 80);
    while (tree.size() < count) {
      int size = r.nextInt(5) == 0 ? r.nextInt(20_000) : r.nextInt(300);
      tree.add(TestTree.name(r, 1 + r.nextInt(6)), TestTree.content(r, size), TestTree.mtime(r));
    }
    Path archive = archivePath("random");
    CreateResult result = create(archive, localSources(tree, "random"), WriterOptions.defaults());
    assertEquals(tree.size(), result.files(), "files in the create result");
    assertEquals(tree.totalBytes(), result.originalBytes(), "bytes in the create result");
    try (HpfReader reader = open(archive)) {
      assertArchiveHolds(reader, tree, NameHasher.DEFAULT);
      assertCommittedFiles(archive, reader);
      assertEquals(result.parts(), reader.manifest().parts().size(), "parts");
      // AUTO compresses text and leaves random bytes raw.
      for (int size : special) {
        EntryStatus raw = reader.stat("special/random-" + size);
        assertEquals(Codec.RAW, raw.codec(), "codec of random-" + size);
        assertEquals(size, raw.storedLength(), "stored length of random-" + size);
        if (size >= 4096) {
          EntryStatus text = reader.stat("special/text-" + size);
          assertEquals(Codec.LZ4, text.codec(), "codec of text-" + size);
          assertTrue(text.storedLength() <= size - size / 8, "text-" + size + " stored in "
              + text.storedLength());
        }
      }
      assertEquals(Codec.LZ4, reader.stat("large/text").codec());
      assertEquals(Codec.RAW, reader.stat("large/random").codec());
    }
  }

  /**
   * Names 35 directories deep, names made of CJK, Hangul, emoji, precomposed and combining
   * accents, and names whose UTF-16 order differs from their UTF-8 byte order.
   */
  @Test
  void roundTripOfDeepAndNonAsciiNames() throws IOException {
    Random r = random;
    TestTree tree = new TestTree();
    StringBuilder deep = new StringBuilder("deep");
    for (int depth = 1; depth <= 35; depth++) {
      deep.append("/l").append(depth);
      if (depth % 5 == 0) {
        tree.addOrFail(deep + "/file-at-" + depth, TestTree.content(r, r.nextInt(200)),
            TestTree.mtime(r));
      }
    }
    tree.addOrFail(deep + "/leaf.txt", TestTree.text(r, 1000), TestTree.mtime(r));
    StringBuilder deepUnicode = new StringBuilder("深い");
    for (int depth = 1; depth <= 32; depth++) {
      deepUnicode.append('/').append(depth % 2 == 0 ? "é" + depth : "😀" + depth);
    }
    tree.addOrFail(deepUnicode + "/終わり🎉.bin", TestTree.randomBytes(r, 333), TestTree.mtime(r));
    String[] fixed = {"é", "e\u0301", "Ａ", "😀", "\uFFFD", "ß", "ss", "a", "a b", "a-b", "a.b",
        "a_b", "ab", "a~", "A", "Z", "z", "日本語/ファイル.txt", "한글/파일", "café/naïve résumé.txt",
        "emoji/👍🏽 thumbs", "emoji/🚀", "mixed/Ωπ-漢字-ñ", ".hidden", "..double-dot-prefix",
        "space at end ", " space at start", "?", "a?"};
    for (String name : fixed) {
      tree.addOrFail(name, TestTree.content(r, r.nextInt(100)), TestTree.mtime(r));
    }
    int count = tree.size() + pick(150, 60);
    while (tree.size() < count) {
      tree.add(TestTree.name(r, 1 + r.nextInt(4)), TestTree.content(r, r.nextInt(150)),
          TestTree.mtime(r));
    }
    Path archive = archivePath("names");
    create(archive, localSources(tree, "names"), WriterOptions.defaults());
    try (HpfReader reader = open(archive)) {
      assertArchiveHolds(reader, tree, NameHasher.DEFAULT);
    }
  }

  /**
   * Members of COMPRESS_LIMIT - 1 and COMPRESS_LIMIT bytes are read whole and compressed; one
   * byte more is streamed raw. All come back identical through get and open.
   */
  @Test
  void roundTripAroundTheCompressLimit() throws IOException {
    Random r = random;
    int limit = WriterOptions.COMPRESS_LIMIT;
    TestTree tree = new TestTree();
    byte[] text = TestTree.text(r, limit + 1);
    tree.addOrFail("text-below", Arrays.copyOf(text, limit - 1), TestTree.mtime(r));
    tree.addOrFail("text-at", Arrays.copyOf(text, limit), TestTree.mtime(r));
    tree.addOrFail("text-above", text, TestTree.mtime(r));
    tree.addOrFail("random-above", TestTree.randomBytes(r, limit + 1), TestTree.mtime(r));
    tree.addOrFail("tiny", TestTree.text(r, 10), TestTree.mtime(r));
    Path archive = archivePath("limit");
    create(archive, localSources(tree, "limit"), options().settings(s -> s.threads(2)).build());
    try (HpfReader reader = open(archive)) {
      assertArchiveHolds(reader, tree, NameHasher.DEFAULT);
      assertEquals(Codec.LZ4, reader.stat("text-below").codec(), "codec below the limit");
      assertEquals(Codec.LZ4, reader.stat("text-at").codec(), "codec at the limit");
      assertEquals(Codec.RAW, reader.stat("text-above").codec(), "codec above the limit");
      assertEquals(limit + 1, reader.stat("text-above").storedLength());
      assertEquals(Codec.RAW, reader.stat("random-above").codec());
    }
  }

  /** NONE stores all raw; LZ4 compresses whatever shrinks; AUTO only what saves 1/8. */
  @ParameterizedTest
  @EnumSource(Compression.class)
  void compressionModes(Compression compression) throws IOException {
    Random r = random;
    TestTree tree = new TestTree();
    for (int i = 0; i < 5; i++) {
      tree.addOrFail("text-" + i, TestTree.text(r, 2000 + i), TestTree.mtime(r));
      tree.addOrFail("random-" + i, TestTree.randomBytes(r, 2000 + i), TestTree.mtime(r));
      // Shrinks by about 9% under LZ4: less than the 1/8 that AUTO asks for.
      byte[] slightly = Arrays.copyOf(TestTree.randomBytes(r, 2000), 2200);
      tree.addOrFail("slightly-" + i, slightly, TestTree.mtime(r));
    }
    tree.addOrFail("empty", new byte[0], TestTree.mtime(r));
    Path archive = archivePath("compression-" + compression);
    create(archive, localSources(tree, "compression-" + compression),
        options().settings(s -> s.compression(compression)).build());
    try (HpfReader reader = open(archive)) {
      assertArchiveHolds(reader, tree, NameHasher.DEFAULT);
      assertEquals(Codec.RAW, reader.stat("empty").codec());
      for (int i = 0; i < 5; i++) {
        EntryStatus text = reader.stat("text-" + i);
        EntryStatus rand = reader.stat("random-" + i);
        EntryStatus slightly = reader.stat("slightly-" + i);
        assertEquals(Codec.RAW, rand.codec(), "random bytes never compress");
        assertEquals(rand.length(), rand.storedLength());
        switch (compression) {
          case NONE -> {
            assertEquals(Codec.RAW, text.codec());
            assertEquals(text.length(), text.storedLength());
            assertEquals(Codec.RAW, slightly.codec());
          }
          case LZ4 -> {
            assertEquals(Codec.LZ4, text.codec());
            assertEquals(Codec.LZ4, slightly.codec(), "LZ4 keeps any saving");
            assertTrue(slightly.storedLength() < slightly.length());
            assertTrue(slightly.storedLength() > slightly.length() - slightly.length() / 8,
                "test data should save less than 1/8: " + slightly.storedLength());
          }
          case AUTO -> {
            assertEquals(Codec.LZ4, text.codec());
            assertTrue(text.storedLength() <= text.length() - text.length() / 8);
            assertEquals(Codec.RAW, slightly.codec(), "AUTO needs a saving of 1/8");
            assertEquals(slightly.length(), slightly.storedLength());
          }
          default -> fail("unknown " + compression);
        }
      }
    }
  }

  /** Sources on the archive's own file system (HDFS, S3 on those variants) rather than local. */
  @Test
  void roundTripWithSourcesOnTheArchiveFileSystem() throws IOException {
    Random r = random;
    TestTree tree = smallTree(pick(120, 40), 3000);
    tree.addOrFail("big/raw-streamed", TestTree.randomBytes(r, (1 << 20) + 4321),
        TestTree.mtime(r));
    tree.addOrFail("empty/file", new byte[0], TestTree.mtime(r));
    tree.addOrFail("日本/😀/é", TestTree.text(r, 5000), TestTree.mtime(r));
    Path sources = new Path(archiveRoot(), "src-fs");
    // With the mtimes the file system keeps (an object store's are its upload times).
    TestTree written = tree.writeTo(archiveFs(), sources);
    Path archive = archivePath("fs-sources");
    create(archive, sources, options().layout(l -> l.withBucketCapacity(16)).build());
    try (HpfReader reader = open(archive)) {
      assertArchiveHolds(reader, written, NameHasher.DEFAULT);
      assertCommittedFiles(archive, reader);
    }
  }

  /** One member (the index holds a bucket of one record) and one member of 0 bytes. */
  @ParameterizedTest
  @ValueSource(ints = {0, 1, 100_000})
  void archiveOfASingleMember(int size) throws IOException {
    TestTree tree = new TestTree();
    tree.addOrFail("only/member", TestTree.content(random, size), TestTree.mtime(random));
    Path archive = archivePath("single-" + size);
    CreateResult result = create(archive, localSources(tree, "single-" + size),
        WriterOptions.defaults());
    assertEquals(1, result.files());
    try (HpfReader reader = open(archive)) {
      assertEquals(1, reader.directory().buckets().size());
      assertArchiveHolds(reader, tree, NameHasher.DEFAULT);
      assertCommittedFiles(archive, reader);
      assertNotFound(reader, "only");
      assertNotFound(reader, "only/member2");
    }
  }

  /** A root that is a file contributes one member named by its file name. */
  @Test
  void fileAndDirectoryRootsTogether() throws IOException {
    Random r = random;
    TestTree dirTree = new TestTree();
    dirTree.addOrFail("x/one", TestTree.text(r, 100), TestTree.mtime(r));
    dirTree.addOrFail("two", TestTree.randomBytes(r, 77), TestTree.mtime(r));
    TestTree fileTree = new TestTree();
    fileTree.addOrFail("single-ファイル.dat", TestTree.randomBytes(r, 1234), TestTree.mtime(r));
    Path dir = localSources(dirTree, "dir-root");
    Path fileRoot = new Path(localSources(fileTree, "file-root"), "single-ファイル.dat");
    Path archive = archivePath("roots");
    create(archive, List.of(dir, fileRoot), WriterOptions.defaults());
    TestTree expected = new TestTree();
    dirTree.members().values().forEach(m -> expected.add(m.name(), m.bytes(), m.mtimeMillis()));
    fileTree.members().values().forEach(m -> expected.add(m.name(), m.bytes(), m.mtimeMillis()));
    try (HpfReader reader = open(archive)) {
      assertArchiveHolds(reader, expected, NameHasher.DEFAULT);
    }
  }

  // ---- 2. bucket splits --------------------------------------------------------------------

  /**
   * Small bucket capacities force many splits; the directory keeps the extendible-hashing
   * invariants, no bucket is over capacity, and every member is found.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 7, 100})
  void bucketSplits(int capacity) throws IOException {
    // Index files are synced one by one: a few hundred of them per test at most.
    TestTree tree = plainTree(capacity <= 2 ? pick(150, 40) : pick(300, 80));
    Path archive = archivePath("capacity-" + capacity);
    CreateResult result = create(archive, localSources(tree, "capacity-" + capacity),
        options().layout(l -> l.withBucketCapacity(capacity)).build());
    try (HpfReader reader = open(archive)) {
      assertEquals(capacity, reader.manifest().bucketCapacity(), "capacity in the manifest");
      DirectoryFile dir = reader.directory();
      assertEquals(result.buckets(), dir.buckets().size(), "buckets in the create result");
      assertEquals(result.globalDepth(), dir.globalDepth(), "global depth in the create result");
      int minBuckets = (tree.size() + capacity - 1) / capacity;
      assertTrue(dir.buckets().size() >= minBuckets, dir.buckets().size() + " buckets for "
          + tree.size() + " records of capacity " + capacity);
      assertArchiveHolds(reader, tree, NameHasher.DEFAULT);
      assertCommittedFiles(archive, reader);
    }
  }

  // ---- 3. hash collisions ------------------------------------------------------------------

  /** Names whose hashes share the low 32 bits land in one bucket and are all retrievable. */
  @Test
  void namesCollidingOnTheLow32Bits() throws IOException {
    Random r = random;
    TestTree tree = plainTree(pick(200, 60));
    ForcedHasher.Builder hasher = ForcedHasher.builder();
    long low32 = r.nextInt() & 0xFFFFFFFFL;
    for (int i = 0; i < 6; i++) {
      String name = "collide32/" + i;
      tree.addOrFail(name, TestTree.content(r, 50 + i), TestTree.mtime(r));
      NameHash murmur = NameHasher.MURMUR3_128.hash(name);
      hasher.force(name, new NameHash(murmur.high(), (murmur.low() & ~0xFFFFFFFFL) | low32));
    }
    ForcedHasher forced = hasher.build();
    Path archive = archivePath("low32");
    create(archive, localSources(tree, "low32"),
        options().layout(l -> l.withBucketCapacity(8)).hasher(forced).build());
    try (HpfReader reader = open(archive, forced)) {
      assertArchiveHolds(reader, tree, forced);
      DirectoryFile dir = reader.directory();
      Set<BucketRef> buckets = new HashSet<>();
      for (int i = 0; i < 6; i++) {
        buckets.add(dir.bucketOf(forced.hash("collide32/" + i)));
      }
      assertEquals(1, buckets.size(), "colliding names share a bucket");
      assertTrue(dir.globalDepth() > 0, "the other names were split off");
    }
  }

  /**
   * Names whose hashes share the whole low word and differ only in the high word, including in
   * its lowest bit and in its sign bit (unsigned order must be kept by sorting and function).
   */
  @ParameterizedTest
  @ValueSource(ints = {0, 12})
  void namesCollidingOnTheLow64Bits(int capacity) throws IOException {
    Random r = random;
    TestTree tree = plainTree(pick(150, 50));
    long low = r.nextLong();
    long h = r.nextLong() & ~1L & ~(1L << 63);
    long[] highs = {0, 1, Long.MAX_VALUE, Long.MIN_VALUE, -1L, h, h | 1, h | (1L << 63),
        r.nextLong(), r.nextLong()};
    ForcedHasher.Builder hasher = ForcedHasher.builder();
    for (int i = 0; i < highs.length; i++) {
      String name = "collide64/" + i;
      tree.addOrFail(name, TestTree.content(r, 30 + i), TestTree.mtime(r));
      hasher.force(name, new NameHash(highs[i], low));
    }
    ForcedHasher forced = hasher.build();
    Path archive = archivePath("low64-" + capacity);
    create(archive, localSources(tree, "low64-" + capacity),
        options().layout(l -> l.withBucketCapacity(capacity)).hasher(forced).build());
    try (HpfReader reader = open(archive, forced)) {
      assertArchiveHolds(reader, tree, forced);
    }
  }

  /**
   * A name that is not a member but whose 128-bit hash equals a member's finds that member's
   * record; the reader must notice the name differs, never return the member's bytes, and answer
   * as for any non-member: exists is false, record null, get, open and stat
   * FileNotInArchiveException (not corruption: the archive is fine). Such names can be made for
   * hash algorithm 1 (MurmurHash3), which archives of format 1 keep.
   */
  @Test
  void lookupOfANonMemberWithAMembersHash() throws IOException {
    Random r = random;
    TestTree tree = plainTree(pick(100, 30));
    tree.addOrFail("real/abc.txt", TestTree.text(r, 500), TestTree.mtime(r));
    tree.addOrFail("real/raw-big", TestTree.randomBytes(r, (1 << 20) + 10), TestTree.mtime(r));
    Path archive = archivePath("ghosts");
    create(archive, localSources(tree, "ghosts"),
        options().hasher(NameHasher.MURMUR3_128).build());
    String[][] ghosts = {
        {"real/abd.txt", "real/abc.txt"}, // same length, one byte differs
        {"ghost", "real/abc.txt"}, // other length
        {"real/abc.txt/more", "real/abc.txt"}, // the member is a prefix
        {"real/abc", "real/abc.txt"}, // a prefix of the member
        {"real/raw-bif", "real/raw-big"}, // a member open() would stream
        {"d00/f00000x", "d00/f00000"}};
    ForcedHasher.Builder builder = ForcedHasher.builder();
    for (String[] ghost : ghosts) {
      builder.sameAs(ghost[0], ghost[1]);
    }
    ForcedHasher forced = builder.build();
    try (HpfReader reader = open(archive, forced)) {
      for (String[] ghost : ghosts) {
        String name = ghost[0];
        for (String op : List.of("get", "open", "stat")) {
          IOException e = assertThrows(IOException.class, () -> {
            switch (op) {
              case "get" -> reader.get(name);
              case "open" -> {
                try (InputStream in = reader.open(name)) {
                  in.readAllBytes();
                }
              }
              default -> reader.stat(name);
            }
          }, op + " of '" + name + "' (hash of '" + ghost[1] + "') must fail");
          assertTrue(e instanceof FileNotInArchiveException,
              op + " of '" + name + "' threw " + e);
        }
        assertFalse(reader.exists(name), name);
        assertNull(reader.record(name), name);
        assertNotNull(reader.recordOfHash(name), name + ": the hash leads to the member");
      }
      // The members themselves are unaffected.
      assertArchiveHolds(reader, tree, forced);
    }
  }

  /** Two members with one 128-bit hash cannot be indexed: the create fails and cleans up. */
  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2})
  void twoMembersWithTheSame128BitHashFailTheCreate(int capacity) throws IOException {
    TestTree tree = plainTree(capacity == 2 ? pick(400, 100) : pick(200, 40));
    tree.addOrFail("twin/a", "first twin".getBytes(StandardCharsets.UTF_8), 1_600_000_000_000L);
    tree.addOrFail("twin/b", "second twin".getBytes(StandardCharsets.UTF_8), 1_600_000_000_000L);
    ForcedHasher forced = ForcedHasher.builder().sameAs("twin/b", "twin/a").build();
    Path archive = archivePath("twins-" + capacity);
    Path sources = localSources(tree, "twins-" + capacity);
    HashCollisionException e = assertThrows(HashCollisionException.class, () -> create(archive,
        sources, options().settings(s -> s.threads(2)).layout(l -> l.withBucketCapacity(capacity))
            .hasher(forced).build()));
    if (capacity != 1) {
      assertTrue(e.getMessage().contains("twin/a") && e.getMessage().contains("twin/b"),
          "the message names both members: " + e.getMessage());
    }
    assertNoArchive(archive);
  }

  /**
   * A create that fails in the index phase returns only after all its writer threads stopped,
   * and leaves nothing behind. Hashes are forced so that bucket 0 holds the two twins (it fails
   * at once) and bucket 1 holds thousands of records, whose function another thread is still
   * building when the failure is seen; that thread then writes an index file, which must not
   * land in (or re-create) the removed archive directory.
   */
  @Test
  void failureInTheIndexPhaseWaitsForTheOtherThreads() throws Exception {
    int others = 2000;
    java.nio.file.Path dir = tmp.resolve("src-index-failure");
    Files.createDirectories(dir);
    ForcedHasher.Builder hasher = ForcedHasher.builder();
    for (int i = 0; i < others; i++) {
      String name = String.format("n%05d", i);
      Files.write(dir.resolve(name), new byte[0]);
      NameHash murmur = NameHasher.MURMUR3_128.hash(name);
      hasher.force(name, new NameHash(murmur.high(), murmur.low() | 1)); // bucket 1
    }
    NameHash twin = new NameHash(random.nextLong(), random.nextLong() & ~1L); // bucket 0
    for (String name : List.of("twin-a", "twin-b")) {
      Files.write(dir.resolve(name), name.getBytes(StandardCharsets.UTF_8));
      hasher.force(name, twin);
    }
    ForcedHasher forced = hasher.build();
    for (Thread thread : writerThreads()) {
      thread.join(30_000); // of earlier tests
    }
    Path archive = archivePath("index-failure");
    assertThrows(HashCollisionException.class, () -> create(archive, new Path(dir.toUri()),
        options().settings(s -> s.threads(2)).layout(l -> l.withBucketCapacity(others))
            .hasher(forced).build()));
    List<Thread> running = writerThreads();
    for (Thread thread : running) {
      thread.join(30_000);
    }
    assertNoArchive(archive);
    assertTrue(running.isEmpty(), "create returned while writer threads still ran: " + running);
  }

  private static List<Thread> writerThreads() {
    List<Thread> threads = new ArrayList<>();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().startsWith("hpf-writer-") && thread.isAlive()) {
        threads.add(thread);
      }
    }
    return threads;
  }

  /**
   * More records than the capacity whose hashes share the low 24 bits (but differ above) would
   * need a directory deeper than 24: the create fails with HashCollisionException.
   */
  @Test
  void recordsSharingTheLow24BitsBeyondTheCapacity() throws IOException {
    Random r = random;
    TestTree tree = plainTree(pick(100, 30));
    ForcedHasher.Builder hasher = ForcedHasher.builder();
    long low24 = r.nextInt(1 << 24);
    for (int i = 0; i < 3; i++) {
      String name = "share24/" + i;
      tree.addOrFail(name, TestTree.content(r, 10), TestTree.mtime(r));
      hasher.force(name, new NameHash(r.nextLong(), ((long) (i + 1) << 24) | low24));
    }
    ForcedHasher forced = hasher.build();
    Path archive = archivePath("share24");
    Path sources = localSources(tree, "share24");
    assertThrows(HashCollisionException.class, () -> create(archive, sources,
        options().layout(l -> l.withBucketCapacity(2)).hasher(forced).build()));
    assertNoArchive(archive);
    // With one more record of room, the same names make a valid archive.
    Path roomy = archivePath("share24-roomy");
    create(roomy, sources, options().layout(l -> l.withBucketCapacity(3)).hasher(forced).build());
    try (HpfReader reader = open(roomy, forced)) {
      assertArchiveHolds(reader, tree, forced);
    }
  }

  /**
   * Two names whose hashes differ first in bit 23 need the deepest directory the format allows
   * (2^24 slots); it is written, read and used.
   */
  @Test
  void globalDepth24() throws IOException {
    Random r = random;
    TestTree tree = new TestTree();
    long low = r.nextLong() & ~(1L << 23);
    tree.addOrFail("deepest/0", TestTree.content(r, 100), TestTree.mtime(r));
    tree.addOrFail("deepest/1", TestTree.content(r, 100), TestTree.mtime(r));
    tree.addOrFail("other", TestTree.content(r, 100), TestTree.mtime(r));
    ForcedHasher forced = ForcedHasher.builder()
        .force("deepest/0", new NameHash(r.nextLong(), low))
        .force("deepest/1", new NameHash(r.nextLong(), low | (1L << 23)))
        .build();
    Path archive = archivePath("depth24");
    create(archive, localSources(tree, "depth24"),
        options().layout(l -> l.withBucketCapacity(1)).hasher(forced).build());
    try (HpfReader reader = open(archive, forced)) {
      assertEquals(DirectoryFile.MAX_DEPTH, reader.directory().globalDepth());
      assertArchiveHolds(reader, tree, forced);
    }
  }

  // ---- 4. names that are not members -------------------------------------------------------

  /** Absent names, near misses of members and invalid names are not found by any call. */
  @Test
  void namesThatAreNotMembers() throws IOException {
    Random r = random;
    TestTree tree = plainTree(pick(100, 30));
    for (String name : List.of("dir/file.txt", "Case.txt", "\u00e9.txt", "?", "a?", "x/y/z")) {
      tree.addOrFail(name, TestTree.content(r, 20), TestTree.mtime(r));
    }
    Path archive = archivePath("absent");
    create(archive, localSources(tree, "absent"), options().layout(l -> l.withBucketCapacity(8))
        .build());
    List<String> absent = new ArrayList<>(List.of("nope", "dir", "dir/", "dir/file.txt/x",
        "dir/file.tx", "dir/file.txtx", "DIR/file.txt", " dir/file.txt", "case.txt",
        "e\u0301.txt", "x", "x/y", "d00", "d00/", "d00/f0000", "d00/f000000"));
    // Invalid names: not members either, and must not be taken for one.
    absent.addAll(List.of("", "/", "/dir/file.txt", "dir/file.txt/", "dir//file.txt", "../x",
        "./dir/file.txt", "dir/./file.txt", "dir/../dir/file.txt", "\0", "dir/file.txt\0",
        "x".repeat(5000), "\uD800", "a\uDC00", "\uDFFF\uD800"));
    try (HpfReader reader = open(archive)) {
      for (String name : absent) {
        assertNotFound(reader, name);
      }
      for (int i = 0; i < pick(3000, 500); i++) {
        String name = TestTree.name(r, 1 + r.nextInt(3));
        if (tree.member(name) == null) {
          assertNotFound(reader, name);
        }
      }
      assertMember(reader, tree.member("?"));
      assertMember(reader, tree.member("a?"));
    }
  }

  // ---- 5. writer errors --------------------------------------------------------------------

  /** Two roots that both hold x/y.txt: DuplicateNameException, nothing written. */
  @Test
  void duplicateNamesFromTwoRoots() throws IOException {
    Random r = random;
    TestTree a = new TestTree();
    a.addOrFail("x/y.txt", TestTree.text(r, 10), TestTree.mtime(r));
    a.addOrFail("only-a", TestTree.text(r, 10), TestTree.mtime(r));
    TestTree b = new TestTree();
    b.addOrFail("x/y.txt", TestTree.text(r, 10), TestTree.mtime(r));
    b.addOrFail("only-b", TestTree.text(r, 10), TestTree.mtime(r));
    Path rootA = localSources(a, "dup-a");
    Path rootB = localSources(b, "dup-b");
    Path archive = archivePath("dup");
    DuplicateNameException e = assertThrows(DuplicateNameException.class,
        () -> create(archive, List.of(rootA, rootB), WriterOptions.defaults()));
    assertTrue(e.getMessage().contains("x/y.txt"), e.getMessage());
    assertNoArchive(archive);
    // A file root named like a member of a directory root.
    Path fileRoot = new Path(rootB, "only-b");
    TestTree c = new TestTree();
    c.addOrFail("only-b", TestTree.text(r, 3), TestTree.mtime(r));
    Path rootC = localSources(c, "dup-c");
    assertThrows(DuplicateNameException.class,
        () -> create(archive, List.of(rootC, fileRoot), WriterOptions.defaults()));
    assertNoArchive(archive);
  }

  /** A source that does not exist: SourceException, nothing written. */
  @Test
  void missingSource() throws IOException {
    TestTree tree = plainTree(5);
    Path present = localSources(tree, "present");
    Path missing = new Path(tmp.resolve("no-such-dir").toUri());
    Path archive = archivePath("missing");
    assertThrows(SourceException.class,
        () -> create(archive, List.of(missing), WriterOptions.defaults()));
    assertNoArchive(archive);
    assertThrows(SourceException.class,
        () -> create(archive, List.of(present, missing), WriterOptions.defaults()));
    assertNoArchive(archive);
  }

  /**
   * A source that changes after it was listed (shrinks, grows or disappears before the merge
   * reads it): SourceException, and the half-merged archive is removed.
   */
  @ParameterizedTest
  @ValueSource(strings = {"shrinks", "grows", "disappears"})
  void sourceChangesDuringTheMerge(String change) throws IOException {
    TestTree tree = plainTree(20);
    tree.addOrFail("zz-last", TestTree.text(random, 5000), TestTree.mtime(random));
    Path sources = localSources(tree, "change-" + change);
    java.nio.file.Path last = tmp.resolve("src-change-" + change).resolve("zz-last");
    AtomicBoolean changed = new AtomicBoolean();
    ProgressListener listener = new ProgressListener() {
      @Override
      public void merged(long bytes) {
        if (changed.compareAndSet(false, true)) {
          try {
            switch (change) {
              case "shrinks" -> Files.write(last, new byte[10]);
              case "grows" -> Files.write(last, new byte[6000]);
              default -> Files.delete(last);
            }
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }
      }
    };
    Path archive = archivePath("change-" + change);
    SourceException e = assertThrows(SourceException.class, () -> create(archive, sources,
        options().settings(s -> s.threads(1).progress(listener)).journalBatch(1, 1).build()));
    assertTrue(changed.get(), "the listener ran");
    assertTrue(e.getMessage().contains("zz-last"), e.getMessage());
    assertNoArchive(archive);
  }

  /** Creating over an existing archive fails and leaves that archive as it was. */
  @Test
  void existingArchiveIsNotTouched() throws IOException {
    Random r = random;
    TestTree first = smallTree(30, 500);
    Path archive = archivePath("exists");
    create(archive, localSources(first, "exists-1"), WriterOptions.defaults());
    Map<String, String> before = snapshot(archive);
    TestTree second = plainTree(10);
    Path other = localSources(second, "exists-2");
    assertThrows(ArchiveExistsException.class,
        () -> create(archive, other, WriterOptions.defaults()));
    assertEquals(before, snapshot(archive), "files of the existing archive");
    try (HpfReader reader = open(archive)) {
      assertArchiveHolds(reader, first, NameHasher.DEFAULT);
    }
    // A plain file where the archive would go is not replaced either.
    Path file = archivePath("a-file");
    byte[] content = TestTree.randomBytes(r, 100);
    try (var out = archiveFs().create(file, false)) {
      out.write(content);
    }
    assertThrows(ArchiveExistsException.class,
        () -> create(file, other, WriterOptions.defaults()));
    try (var in = archiveFs().open(file)) {
      assertArrayEquals(content, in.readAllBytes(), "the file in the archive's place");
    }
  }

  /** An existing empty directory is not an archive: the create uses it. */
  @Test
  void existingEmptyDirectoryBecomesTheArchive() throws IOException {
    TestTree tree = smallTree(20, 300);
    Path archive = archivePath("empty-dir");
    assertTrue(archiveFs().mkdirs(archive));
    create(archive, localSources(tree, "empty-dir"), WriterOptions.defaults());
    verify(archive, tree);
  }

  private Map<String, String> snapshot(Path dir) throws IOException {
    Map<String, String> files = new TreeMap<>();
    var it = archiveFs().listFiles(dir, true);
    while (it.hasNext()) {
      var status = it.next();
      files.put(status.getPath().toString(), status.getLen() + "@" + status.getModificationTime());
    }
    return files;
  }

  // ---- 6. parts ----------------------------------------------------------------------------

  /**
   * With one thread and no compression, parts roll over exactly as the writer's rule says: an
   * entry goes to the current part unless the part is not empty and the entry would take it
   * past the part size. Part files hold exactly the manifest's lengths.
   */
  @Test
  void partsRollOverAtThePartSize() throws IOException {
    TestTree tree = smallTree(pick(200, 60), 3000);
    long partSize = 8 * 1024;
    Path archive = archivePath("rollover");
    create(archive, localSources(tree, "rollover"),
        options().settings(s -> s.threads(1).compression(Compression.NONE))
            .layout(l -> l.withPartSize(partSize)).build());
    try (HpfReader reader = open(archive)) {
      assertArchiveHolds(reader, tree, NameHasher.DEFAULT);
      assertCommittedFiles(archive, reader);
      int preamble = 24 + 4;
      int part = 0;
      long position = preamble;
      for (TestTree.Member m : tree.members().values()) {
        long entry = 36 + m.name().getBytes(StandardCharsets.UTF_8).length + m.bytes().length + 4;
        if (position > preamble && position + entry > partSize) {
          part++;
          position = preamble;
        }
        EntryStatus status = reader.stat(m.name());
        assertEquals(part, status.part(), "part of " + m.name() + " " + Seeds.describe());
        assertEquals(position, status.partOffset(), "offset of " + m.name());
        position += entry;
      }
      List<Manifest.PartInfo> parts = reader.manifest().parts();
      assertEquals(part + 1, parts.size(), "parts");
      long bytes = tree.totalBytes();
      assertTrue(parts.size() >= 2 && parts.size() >= bytes / partSize, parts.size()
          + " parts for " + bytes + " bytes in parts of " + partSize);
      for (int i = 0; i < parts.size(); i++) {
        assertEquals(i, parts.get(i).id(), "part ids are 0..n-1");
      }
      assertEquals(position + 8, parts.get(parts.size() - 1).length(), "length of the last part");
    }
  }

  /**
   * An entry that ends exactly at the part size stays in its part; one byte more rolls over; a
   * member of exactly the part size gets a part of its own.
   */
  @ParameterizedTest
  @ValueSource(ints = {0, 1})
  void partBoundaries(int extra) throws IOException {
    Random r = random;
    int partSize = 4096;
    int preamble = 28;
    TestTree tree = new TestTree();
    tree.addOrFail("a", TestTree.randomBytes(r, 100), TestTree.mtime(r));
    long afterA = preamble + 36 + 1 + 100 + 4;
    int bLength = (int) (partSize - afterA) - 36 - 1 - 4 + extra;
    tree.addOrFail("b", TestTree.randomBytes(r, bLength), TestTree.mtime(r));
    tree.addOrFail("c", new byte[0], TestTree.mtime(r));
    tree.addOrFail("d", TestTree.randomBytes(r, partSize), TestTree.mtime(r));
    tree.addOrFail("e", TestTree.randomBytes(r, 5), TestTree.mtime(r));
    Path archive = archivePath("boundary-" + extra);
    create(archive, localSources(tree, "boundary-" + extra),
        options().settings(s -> s.threads(1).compression(Compression.NONE))
            .layout(l -> l.withPartSize(partSize)).build());
    try (HpfReader reader = open(archive)) {
      assertArchiveHolds(reader, tree, NameHasher.DEFAULT);
      assertCommittedFiles(archive, reader);
      int[] expectedParts = extra == 0 ? new int[] {0, 0, 1, 2, 3} : new int[] {0, 1, 1, 2, 3};
      String[] names = {"a", "b", "c", "d", "e"};
      for (int i = 0; i < names.length; i++) {
        assertEquals(expectedParts[i], reader.stat(names[i]).part(), "part of " + names[i]);
      }
      List<Manifest.PartInfo> parts = reader.manifest().parts();
      assertEquals(4, parts.size());
      if (extra == 0) {
        assertEquals(partSize + 8, parts.get(0).length(), "a part filled to the byte");
      }
      assertEquals(preamble + 36 + 1 + partSize + 4 + 8, parts.get(2).length(),
          "the part of the member of exactly the part size");
    }
  }

  /** A source directory without files (only empty directories) makes an empty archive. */
  @Test
  void emptyArchive() throws IOException {
    java.nio.file.Path src = tmp.resolve("src-empty");
    Files.createDirectories(src.resolve("empty/sub/dirs"));
    Path archive = archivePath("empty");
    CreateResult result = create(archive, new Path(src.toUri()), WriterOptions.defaults());
    assertEquals(0, result.files());
    try (HpfReader reader = open(archive)) {
      try (Stream<String> names = reader.list()) {
        assertEquals(0, names.count(), "names in an empty archive");
      }
      assertEquals(0, reader.manifest().fileCount());
      assertEquals(0, reader.manifest().originalBytes());
      assertEquals(0, reader.manifest().parts().size(), "parts of an empty archive");
      assertEquals(1, reader.directory().buckets().size());
      assertEquals(0, reader.directory().buckets().get(0).recordCount());
      assertNotFound(reader, "anything");
      assertNotFound(reader, "empty/sub/dirs");
      assertCommittedFiles(archive, reader);
    }
  }

  /** One merge thread and four merge threads store the same members. */
  @Test
  void oneAndFourThreadsGiveTheSameContents() throws IOException {
    TestTree tree = smallTree(pick(300, 80), 5000);
    Path sources = localSources(tree, "threads");
    Path one = archivePath("threads-1");
    Path four = archivePath("threads-4");
    create(one, sources, options().settings(s -> s.threads(1))
        .layout(l -> l.withPartSize(64 * 1024)).build());
    create(four, sources, options().settings(s -> s.threads(4))
        .layout(l -> l.withPartSize(64 * 1024)).build());
    try (HpfReader a = open(one); HpfReader b = open(four)) {
      assertArchiveHolds(a, tree, NameHasher.DEFAULT);
      assertArchiveHolds(b, tree, NameHasher.DEFAULT);
      List<String> namesA;
      List<String> namesB;
      try (Stream<String> s = a.list()) {
        namesA = s.toList();
      }
      try (Stream<String> s = b.list()) {
        namesB = s.toList();
      }
      assertEquals(namesA, namesB);
      for (String name : namesA) {
        assertArrayEquals(a.get(name), b.get(name), name);
        EntryStatus sa = a.stat(name);
        EntryStatus sb = b.stat(name);
        assertEquals(sa.length(), sb.length(), name);
        assertEquals(sa.mtimeMillis(), sb.mtimeMillis(), name);
        assertEquals(sa.codec(), sb.codec(), name);
        assertEquals(sa.storedLength(), sb.storedLength(), name);
      }
      assertEquals(a.manifest().storedBytes(), b.manifest().storedBytes());
    }
  }

  /** Many files, several threads and parts, buckets of 1000: everything comes back. */
  @Tag("slow")
  @Test
  void manyFiles() throws IOException {
    Random r = random;
    int count = pick(30_000, 5_000);
    TestTree tree = new TestTree();
    for (int i = 0; i < count; i++) {
      tree.addOrFail(String.format("many/%03d/%06d", i % 211, i),
          TestTree.content(r, r.nextInt(600)), TestTree.mtime(r));
    }
    Path archive = archivePath("many");
    CreateResult result = create(archive, localSources(tree, "many"),
        options().settings(s -> s.threads(4)).layout(l -> l.withPartSize(1 << 20)
            .withBucketCapacity(1000)).build());
    assertTrue(result.parts() >= Math.max(2, tree.totalBytes() >> 20), "parts: "
        + result.parts());
    verify(archive, tree);
  }

  // ---- 7. concurrency ----------------------------------------------------------------------

  /** Eight threads doing random gets, opens, stats and misses on one fresh reader. */
  @Test
  void concurrentReadsOnOneReader() throws Exception {
    Random r = random;
    TestTree tree = smallTree(pick(400, 120), 20_000);
    tree.addOrFail("big/streamed-1", TestTree.randomBytes(r, (1 << 20) + 1), TestTree.mtime(r));
    tree.addOrFail("big/streamed-2", TestTree.randomBytes(r, (1 << 20) + 99), TestTree.mtime(r));
    Path archive = archivePath("concurrent");
    create(archive, localSources(tree, "concurrent"),
        options().layout(l -> l.withBucketCapacity(16).withPartSize(256 * 1024)).build());
    List<TestTree.Member> members = new ArrayList<>(tree.members().values());
    int threads = 8;
    int opsPerThread = pick(400, 150);
    ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    AtomicLong checked = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try (HpfReader reader = open(archive)) {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long threadSeed = r.nextLong();
        futures.add(pool.submit(() -> {
          Random tr = new Random(threadSeed);
          start.await();
          for (int i = 0; i < opsPerThread; i++) {
            TestTree.Member m = members.get(tr.nextInt(members.size()));
            try {
              switch (tr.nextInt(5)) {
                case 0, 1 -> {
                  if (!Arrays.equals(m.bytes(), reader.get(m.name()))) {
                    failures.add("get " + m.name());
                  }
                }
                case 2 -> {
                  try (InputStream in = reader.open(m.name())) {
                    if (!Arrays.equals(m.bytes(), in.readAllBytes())) {
                      failures.add("open " + m.name());
                    }
                  }
                }
                case 3 -> {
                  EntryStatus s = reader.stat(m.name());
                  if (s.length() != m.bytes().length || s.mtimeMillis() != m.mtimeMillis()) {
                    failures.add("stat " + m.name());
                  }
                }
                default -> {
                  if (reader.exists(m.name() + "/absent")) {
                    failures.add("exists " + m.name() + "/absent");
                  }
                }
              }
              checked.incrementAndGet();
            } catch (IOException | RuntimeException e) {
              failures.add(m.name() + ": " + e);
            }
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    assertTrue(failures.isEmpty(), failures.size() + " failures, first: "
        + failures.stream().limit(5).toList() + " " + Seeds.describe());
    assertEquals((long) threads * opsPerThread, checked.get());
  }

  /** Helper for subclasses: verify an archive made elsewhere from {@code tree}. */
  protected void verify(Path archive, TestTree tree) throws IOException {
    try (HpfReader reader = open(archive)) {
      assertArchiveHolds(reader, tree, NameHasher.DEFAULT);
      assertCommittedFiles(archive, reader);
    }
  }

}
