package org.hpf.battery;

import static org.hpf.battery.ArchiveAssertions.assertArchiveHolds;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.NameHash;
import org.hpf.internal.format.NameHasher;
import org.hpf.internal.read.EntryStatus;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.CreateResult;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The round-trip and error battery of hpf-core: what depends on the store, run unchanged on the
 * local file system, a MiniDFSCluster and an S3-protocol server by the subclasses (the tests of
 * the format and the index alone are {@link LocalArchiveTest}'s). Every test writes real files,
 * creates a real archive with {@link ArchiveCreator} and reads it back with {@link HpfReader}.
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

  protected HpfReader open(Path archive, NameHasher hasher) throws IOException {
    return HpfReader.open(archive.getFileSystem(conf()), archive, new ReaderOptions(hasher));
  }

  static WriterOptions.Builder options() {
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
    return fillTree(new TestTree(), count, maxSize);
  }

  /**
   * Adds random files to {@code tree} until it holds {@code count}: names that would clash with
   * the files a test placed first (a random name may be any of them, or a parent) are skipped.
   */
  protected TestTree fillTree(TestTree tree, int count, int maxSize) {
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

  static void assertNotFound(HpfReader reader, String name) throws IOException {
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

  /** Sources on the archive's own file system (HDFS, S3 on those variants) rather than local. */
  @Test
  void roundTripWithSourcesOnTheArchiveFileSystem() throws IOException {
    Random r = random;
    TestTree tree = new TestTree();
    tree.addOrFail("big/raw-streamed", TestTree.randomBytes(r, (1 << 20) + 4321),
        TestTree.mtime(r));
    tree.addOrFail("empty/file", new byte[0], TestTree.mtime(r));
    tree.addOrFail("日本/😀/é", TestTree.text(r, 5000), TestTree.mtime(r));
    fillTree(tree, 3 + pick(120, 40), 3000);
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

  // ---- 2. a failure while indexing ---------------------------------------------------------

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

  // ---- 3. writer errors --------------------------------------------------------------------

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

  // ---- 4. parts ----------------------------------------------------------------------------

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

  // ---- 5. concurrency ----------------------------------------------------------------------

  /** Eight threads doing random gets, opens, stats and misses on one fresh reader. */
  @Test
  void concurrentReadsOnOneReader() throws Exception {
    Random r = random;
    TestTree tree = new TestTree();
    tree.addOrFail("big/streamed-1", TestTree.randomBytes(r, (1 << 20) + 1), TestTree.mtime(r));
    tree.addOrFail("big/streamed-2", TestTree.randomBytes(r, (1 << 20) + 99), TestTree.mtime(r));
    fillTree(tree, 2 + pick(400, 120), 20_000);
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
