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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.fs.Path;
import org.hpf.Compression;
import org.hpf.FileNotInArchiveException;
import org.hpf.HashCollisionException;
import org.hpf.internal.format.Codec;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.NameHash;
import org.hpf.internal.format.NameHasher;
import org.hpf.internal.read.EntryStatus;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.CreateResult;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The battery's tests of the format and the index on the local file system only: names, hashes,
 * buckets, compression and thread counts are the same on every store, and the reads and writes
 * they make are those {@link ArchiveBattery} runs on every store (HDFS, S3 too).
 */
class LocalArchiveTest extends ArchiveBattery {
  LocalArchiveTest() {
    super(local());
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
}
