package org.hpf.fs;

import static org.junit.jupiter.api.Assertions.*;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.contract.ContractTestUtils;
import org.apache.hadoop.fs.permission.FsPermission;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.Codec;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;
import org.hpf.internal.write.WriterTestHooks;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * HpfFileSystem over a local archive: statuses, listings, streams, checksums, read-only. Tests
 * that change or damage the archive make their own ({@link #freshArchive}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HpfFileSystemTest {
  @TempDir static java.nio.file.Path shared;
  @TempDir java.nio.file.Path tmp;
  private SourceTree tree;
  private Configuration conf;
  private Path archive;
  private FileSystem fs;
  private String base;

  @BeforeAll
  void setUp() throws IOException {
    tree = new SourceTree(shared.resolve("src"), 42, 60);
    conf = new Configuration();
    conf.setLong(HpfFileSystem.CHECK_INTERVAL_KEY, 0);
    conf.setBoolean("fs.hpf.impl.disable.cache", true);
    useArchive(shared.resolve("a.hpf"));
  }

  private void useArchive(java.nio.file.Path dir) throws IOException {
    archive = new Path("file", null, dir.toAbsolutePath().toString());
    if (!Files.exists(dir)) {
      ArchiveCreator.create(conf, archive, List.of(new Path(tree.root.toUri())),
          WriterOptions.builder().settings(s -> s.threads(2)).layout(l -> l.withPartSize(1 << 20)
              .withBlockSize(1 << 20)).build());
    }
    base = "hpf://file-" + archive.toUri().getPath();
    if (fs != null) {
      fs.close();
    }
    fs = new Path(base).getFileSystem(conf);
  }

  /** A new archive of the same files, for a test that changes it. */
  private void freshArchive() throws IOException {
    useArchive(tmp.resolve("own.hpf"));
  }

  @AfterEach
  void backToTheSharedArchive() throws IOException {
    if (!archive.getName().equals("a.hpf")) {
      useArchive(shared.resolve("a.hpf"));
    }
  }

  @AfterAll
  void tearDown() throws IOException {
    fs.close();
  }

  private Path p(String member) {
    return new Path(base + (member.isEmpty() ? "" : "/" + member));
  }

  @Test
  void registeredThroughServiceLoader() throws IOException {
    assertEquals(HpfFileSystem.class, FileSystem.getFileSystemClass("hpf", new Configuration()));
    assertEquals("hpf", fs.getScheme());
    assertEquals("hpf://file-/", fs.getUri().toString());
  }

  @Test
  void statuses() throws IOException {
    FileStatus root = fs.getFileStatus(p(""));
    assertTrue(root.isDirectory());
    assertEquals(p(""), root.getPath());
    FileStatus dir = fs.getFileStatus(p("text/d3"));
    assertTrue(dir.isDirectory());
    assertEquals(new FsPermission((short) 0555), dir.getPermission());
    for (Map.Entry<String, byte[]> e : tree.files.entrySet()) {
      FileStatus file = fs.getFileStatus(p(e.getKey()));
      assertTrue(file.isFile(), e.getKey());
      assertEquals(e.getValue().length, file.getLen(), e.getKey());
      assertEquals(p(e.getKey()), file.getPath());
      assertEquals(new FsPermission((short) 0444), file.getPermission());
      assertEquals(Files.getLastModifiedTime(tree.root.resolve(e.getKey())).toMillis(),
          file.getModificationTime(), e.getKey());
    }
    assertThrows(FileNotFoundException.class, () -> fs.getFileStatus(p("text/d3/nope")));
    assertThrows(FileNotFoundException.class, () -> fs.getFileStatus(p("text/d")));
    assertThrows(FileNotFoundException.class,
        () -> fs.getFileStatus(new Path("hpf://file-" + shared.toAbsolutePath() + "/b.hpf/x")));
    assertFalse(fs.exists(p("text/file-1.txt/below")));
  }

  @Test
  void anAuthorityWithoutASchemeFailsWithOneLine() {
    for (String uri : List.of("hpf://nohyphen/x.hpf", "hpf://-nn:8020/x.hpf")) {
      HpfFileSystem hpf = new HpfFileSystem();
      // An IOException, not an IllegalArgumentException: FsShell prints its usage for the latter.
      IOException e = assertThrows(IOException.class,
          () -> hpf.initialize(java.net.URI.create(uri), conf), uri);
      assertTrue(e.getMessage().contains(uri) && e.getMessage().contains("<scheme>-<authority>")
          && e.getMessage().contains("hpf://hdfs-namenode:8020/"), e.getMessage());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
  }

  @Test
  void anEmptyAuthorityIsTheDefaultFileSystem() throws IOException {
    try (HpfFileSystem hpf = new HpfFileSystem()) {
      hpf.initialize(java.net.URI.create("hpf:///x.hpf"), conf);
      assertEquals("hpf:///", hpf.getUri().toString());
      assertThrows(FileNotFoundException.class, () -> hpf.getFileStatus(new Path("/x.hpf")));
    }
  }

  @Test
  void aDirectoryWithoutAnArchiveSaysWhy() throws IOException {
    Files.createDirectories(tmp.resolve("empty.hpf"));
    Path empty = new Path("hpf://file-" + tmp.toAbsolutePath() + "/empty.hpf");
    IOException e = assertThrows(IOException.class, () -> fs.getFileStatus(empty));
    assertTrue(e.getMessage().endsWith("empty.hpf is not an hpf archive: no _manifests directory"),
        e.getMessage());
  }

  @Test
  void aRemovedArchiveIsNotFound() throws IOException {
    freshArchive();
    assertTrue(fs.exists(p("text")));
    org.apache.commons.io.FileUtils.deleteDirectory(tmp.resolve("own.hpf").toFile());
    assertThrows(FileNotFoundException.class, () -> fs.getFileStatus(p("text")));
  }

  @Test
  void listings() throws IOException {
    List<String> top = names(fs.listStatus(p("")));
    assertEquals(List.of("data", "text"), top);
    List<String> text = names(fs.listStatus(p("text")));
    assertEquals(List.of("d0", "d1", "d2", "d3", "d4", "d5", "d6", "empty.txt",
        "größe-ü.txt", "with space.txt"), text);
    // A file lists as itself.
    FileStatus[] single = fs.listStatus(p(SourceTree.BIG));
    assertEquals(1, single.length);
    assertTrue(single[0].isFile());
    assertThrows(FileNotFoundException.class, () -> fs.listStatus(p("missing")));

    List<String> all = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(p(""), true);
    while (files.hasNext()) {
      LocatedFileStatus status = files.next();
      assertTrue(status.isFile());
      assertNotNull(status.getBlockLocations());
      all.add(fs.makeQualified(status.getPath()).toString().substring(base.length() + 1));
    }
    assertEquals(new ArrayList<>(tree.files.keySet()), all);

    List<String> direct = new ArrayList<>();
    files = fs.listFiles(p("text/d0/sub0"), false);
    while (files.hasNext()) {
      direct.add(files.next().getPath().getName());
    }
    assertEquals(tree.countBelow("text/d0/sub0/"), direct.size());

    RemoteIterator<LocatedFileStatus> located = fs.listLocatedStatus(p("text"));
    int dirs = 0;
    int plain = 0;
    while (located.hasNext()) {
      LocatedFileStatus status = located.next();
      if (status.isDirectory()) {
        dirs++;
      } else {
        plain++;
        assertEquals(status.getLen() == 0 ? 0 : 1, status.getBlockLocations().length);
      }
    }
    assertEquals(7, dirs);
    assertEquals(3, plain);
    assertEquals(7, fs.globStatus(p("text/d*")).length);
  }

  @Test
  void aLocatedListingReadsNoPartFileAndNoIndex() throws IOException {
    // Bytes this thread reads from the local file system.
    java.util.function.LongSupplier bytesRead = () -> FileSystem.getAllStatistics().stream()
        .filter(st -> st.getScheme().equals("file"))
        .mapToLong(st -> st.getThreadStatistics().getBytesRead()).sum();
    long listingAndIndex = 0; // what opening the archive and reading its names reads
    try (java.util.stream.Stream<java.nio.file.Path> files =
        Files.walk(java.nio.file.Path.of(archive.toUri()))) {
      for (java.nio.file.Path file : (Iterable<java.nio.file.Path>) files::iterator) {
        String name = file.getFileName().toString();
        if (name.startsWith("names-") || name.startsWith("directory-")
            || name.startsWith("manifest-")) {
          listingAndIndex += Files.size(file);
        }
      }
    }
    fs.close(); // a new file system: nothing loaded yet
    fs = new Path(base).getFileSystem(conf);
    long before = bytesRead.getAsLong();
    int count = 0;
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(p(""), true);
    while (files.hasNext()) {
      assertTrue(files.next().getBlockLocations().length <= 1);
      count++;
    }
    long read = bytesRead.getAsLong() - before;
    assertEquals(tree.files.size(), count);
    // Names and locations from the names segments, blocks from the parts' block maps: no entry
    // header is read (36 bytes and the name per member) and no index record (a group of 32 per
    // lookup).
    assertTrue(read > 0 && read <= listingAndIndex + 4096,
        read + " bytes read, the names, manifest and directory hold " + listingAndIndex);
  }

  /** What testComplexDirActions checks, on a tree with no empty directories. */
  @Test
  void listingCallsAgree() throws IOException {
    ContractTestUtils.TreeScanResults walk = ContractTestUtils.treeWalk(fs, p(""));
    ContractTestUtils.TreeScanResults listed =
        new ContractTestUtils.TreeScanResults(fs.listFiles(p(""), true));
    walk.assertFieldsEquivalent("treewalk vs listFiles(recursive)", listed, walk.getFiles(),
        listed.getFiles());
    assertEquals(tree.files.size(), walk.getFileCount());
    assertEquals(1 + 2 + 7 + 21, walk.getDirCount());
    for (Path dir : walk.getDirectories()) {
      List<FileStatus> array = List.of(fs.listStatus(dir));
      List<FileStatus> iterated = new ArrayList<>();
      RemoteIterator<FileStatus> it = fs.listStatusIterator(dir);
      while (it.hasNext()) {
        iterated.add(it.next());
      }
      List<FileStatus> located = new ArrayList<>();
      RemoteIterator<LocatedFileStatus> lit = fs.listLocatedStatus(dir);
      while (lit.hasNext()) {
        located.add(lit.next());
      }
      assertEquals(array, iterated, dir.toString());
      assertEquals(array, located, dir.toString());
      ContractTestUtils.TreeScanResults direct =
          new ContractTestUtils.TreeScanResults(fs.listFiles(dir, false));
      assertEquals(array.stream().filter(FileStatus::isFile).count(), direct.getFileCount());
    }
  }

  @Test
  void aNameThatIsAFileAndADirectoryListsOnce() throws IOException {
    freshArchive();
    java.nio.file.Path more = tmp.resolve("more");
    Files.createDirectories(more.resolve("text/empty.txt"));
    Files.writeString(more.resolve("text/empty.txt/below"), "below a file\n");
    // Writers refuse such names now; archives written before they did may have them.
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive,
        WriterTestHooks.withoutNestingCheck())) {
      writer.append(List.of(new Path(more.toUri())), false);
    }
    assertTrue(fs.getFileStatus(p("text/empty.txt")).isFile());
    long named = java.util.Arrays.stream(fs.listStatus(p("text")))
        .filter(s -> s.getPath().getName().equals("empty.txt")).count();
    assertEquals(1, named);
    // Listed once the set of directories is built (the listing above built it): still a file.
    FileStatus[] listed = fs.listStatus(p("text/empty.txt"));
    assertEquals(1, listed.length);
    assertTrue(listed[0].isFile());
    assertTrue(fs.listFiles(p("text/empty.txt"), true).next().isFile());
    try (FSDataInputStream in = fs.open(p("text/empty.txt/below"))) {
      assertEquals("below a file\n", new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  private static List<String> names(FileStatus[] statuses) {
    List<String> names = new ArrayList<>();
    for (FileStatus s : statuses) {
      names.add(s.getPath().getName());
    }
    return names;
  }

  @Test
  @SuppressWarnings("deprecation")
  void readsEveryFileWhole() throws IOException {
    FileSystem.Statistics statistics = FileSystem.getStatistics("hpf", fs.getClass());
    long before = statistics.getBytesRead();
    long total = 0;
    for (Map.Entry<String, byte[]> e : tree.files.entrySet()) {
      try (FSDataInputStream in = fs.open(p(e.getKey()))) {
        assertArrayEquals(e.getValue(), in.readAllBytes(), e.getKey());
      }
      total += e.getValue().length;
    }
    assertTrue(statistics.getBytesRead() - before >= total);
    assertThrows(FileNotFoundException.class, () -> fs.open(p("text")));
    assertThrows(FileNotFoundException.class, () -> fs.open(p("nope.txt")));
  }

  @Test
  void seeksAndPositionedReadsInPlace() throws IOException {
    byte[] expected = tree.files.get(SourceTree.BIG);
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      assertEquals(Codec.RAW, reader.stat(SourceTree.BIG).codec());
    }
    Random random = new Random(7);
    try (FSDataInputStream in = fs.open(p(SourceTree.BIG))) {
      for (int i = 0; i < 200; i++) {
        int at = random.nextInt(expected.length);
        int len = Math.min(1 + random.nextInt(200_000), expected.length - at);
        byte[] got = new byte[len];
        if (i % 2 == 0) {
          in.seek(at);
          in.readFully(got);
          assertEquals(at + len, in.getPos());
        } else {
          long before = in.getPos();
          in.readFully(at, got);
          assertEquals(before, in.getPos());
        }
        assertArrayEquals(java.util.Arrays.copyOfRange(expected, at, at + len), got);
      }
      in.seek(expected.length);
      assertEquals(-1, in.read());
      assertThrows(EOFException.class, () -> in.seek(expected.length + 1L));
      assertThrows(EOFException.class, () -> in.seek(-1));
      assertThrows(EOFException.class, () -> in.readFully(expected.length - 2, new byte[4]));
    }
  }

  @Test
  void sequentialReadOfADamagedMemberFails() throws IOException {
    freshArchive();
    org.hpf.internal.format.IndexRecord record = recordOfBig();
    java.io.File part = partOf(record);
    try (RandomAccessFile file = new RandomAccessFile(part, "rw")) {
      long at = record.offset() + record.entryLength() / 2;
      file.seek(at);
      int b = file.read();
      file.seek(at);
      file.write(b ^ 0x10);
    }
    try (FSDataInputStream in = fs.open(p(SourceTree.BIG))) {
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          in::readAllBytes);
      assertTrue(e.getMessage().contains("chunk checksum"), e.getMessage());
    }
  }

  private org.hpf.internal.format.IndexRecord recordOfBig() throws IOException {
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      return reader.record(SourceTree.BIG);
    }
  }

  /** The part file of the test's own archive that holds {@code record}'s entry. */
  private java.io.File partOf(org.hpf.internal.format.IndexRecord record) {
    return new java.io.File(tmp.resolve("own.hpf").toFile(),
        org.hpf.internal.format.ArchiveLayout.part(record.part()));
  }

  @Test
  void aPartCutWhileAMemberIsOpenNamesTheMember() throws IOException {
    freshArchive();
    org.hpf.internal.format.IndexRecord record = recordOfBig();
    java.io.File part = partOf(record);
    try (FSDataInputStream in = fs.open(p(SourceTree.BIG))) {
      in.readFully(new byte[100]);
      try (RandomAccessFile file = new RandomAccessFile(part, "rw")) {
        file.setLength(record.offset() + record.entryLength() / 2);
      }
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          in::readAllBytes);
      assertEquals(p(SourceTree.BIG) + ": its entry at offset " + record.offset() + " of "
          + part.getName() + " runs past the end of the part: the part was truncated after this"
          + " reader opened it", e.getMessage());
    }
  }

  @Test
  void checksumsAndBlocks() throws IOException {
    for (Map.Entry<String, byte[]> e : tree.files.entrySet()) {
      FileChecksum checksum = fs.getFileChecksum(p(e.getKey()));
      CRC32C crc = new CRC32C();
      crc.update(e.getValue());
      assertEquals("COMPOSITE-CRC32C", checksum.getAlgorithmName());
      assertEquals(new HpfFileChecksum((int) crc.getValue()), checksum, e.getKey());
    }
    byte[] big = tree.files.get(SourceTree.BIG);
    CRC32C prefix = new CRC32C();
    prefix.update(big, 0, 1000);
    assertEquals(new HpfFileChecksum((int) prefix.getValue()),
        fs.getFileChecksum(p(SourceTree.BIG), 1000));
    assertThrows(FileNotFoundException.class, () -> fs.getFileChecksum(p("text")));

    FileStatus status = fs.getFileStatus(p(SourceTree.BIG));
    BlockLocation[] blocks = fs.getFileBlockLocations(status, 0, status.getLen());
    assertTrue(blocks.length >= 1);
    long covered = 0;
    for (BlockLocation block : blocks) {
      assertEquals(covered, block.getOffset());
      covered += block.getLength();
    }
    assertEquals(status.getLen(), covered);
    assertEquals(0, fs.getFileBlockLocations(status, status.getLen(), 10).length);
  }

  @Test
  void contentSummary() throws IOException {
    ContentSummary text = fs.getContentSummary(p("text"));
    assertEquals(tree.countBelow("text/"), text.getFileCount());
    assertEquals(tree.bytesBelow("text/"), text.getLength());
    assertEquals(1 + 7 + 7 * 3, text.getDirectoryCount());
    ContentSummary all = fs.getContentSummary(p(""));
    assertEquals(tree.files.size(), all.getFileCount());
    assertEquals(1 + 2 + 7 + 21, all.getDirectoryCount());
    ContentSummary one = fs.getContentSummary(p(SourceTree.BIG));
    assertEquals(1, one.getFileCount());
    assertEquals(0, one.getDirectoryCount());
  }

  @Test
  void everyMutationIsRefused() throws IOException {
    Path file = p("text/empty.txt");
    Path dir = p("text");
    List<org.junit.jupiter.api.function.Executable> calls = List.of(
        () -> fs.create(p("new.txt")),
        () -> fs.create(file, true),
        () -> fs.createNewFile(p("new.txt")),
        () -> fs.createNonRecursive(p("new.txt"), true, 4096, (short) 1, 1 << 20, null),
        () -> fs.createFile(p("new.txt")).build(),
        () -> fs.append(file),
        () -> fs.rename(file, p("text/moved.txt")),
        () -> fs.delete(file, false),
        () -> fs.delete(dir, true),
        () -> fs.mkdirs(p("newdir")),
        () -> fs.mkdirs(dir),
        () -> fs.setPermission(file, new FsPermission((short) 0777)),
        () -> fs.setOwner(file, "a", "b"),
        () -> fs.setTimes(file, 1, 1),
        () -> fs.setReplication(file, (short) 2),
        () -> fs.truncate(file, 0),
        () -> fs.concat(file, new Path[] {p(SourceTree.BIG)}),
        () -> fs.setXAttr(file, "user.a", new byte[1]),
        () -> fs.removeXAttr(file, "user.a"),
        () -> fs.setAcl(file, List.of()),
        () -> fs.createSnapshot(dir, "s"),
        () -> fs.setStoragePolicy(file, "HOT"),
        () -> fs.copyFromLocalFile(new Path(tree.root.toUri()), dir),
        () -> fs.deleteOnExit(file));
    for (org.junit.jupiter.api.function.Executable call : calls) {
      HpfReadOnlyException e = assertThrows(HpfReadOnlyException.class, call);
      assertTrue(e.getMessage().startsWith("hpf:// is read-only"), e.getMessage());
    }
    // The message points at the CLI commands that do change an archive.
    String message = new HpfReadOnlyException("delete", file).getMessage();
    assertTrue(message.contains("'hpf append'") && message.contains("'hpf rm'"), message);
    assertFalse(message.contains("hpf delete"), message);
    assertTrue(fs.hasPathCapability(file, CommonPathCapabilities.FS_READ_ONLY_CONNECTOR));
    assertTrue(fs.hasPathCapability(file, CommonPathCapabilities.FS_CHECKSUMS));
    assertFalse(fs.hasPathCapability(file, CommonPathCapabilities.FS_APPEND));
    assertFalse(fs.hasPathCapability(file, CommonPathCapabilities.FS_PERMISSIONS));
    // Nothing changed.
    try (FSDataInputStream in = fs.open(file)) {
      assertEquals(-1, in.read());
    }
  }

  @Test
  void seesANewGeneration() throws IOException {
    freshArchive();
    FSDataInputStream before = fs.open(p(SourceTree.BIG));
    java.nio.file.Path more = tmp.resolve("more");
    Files.createDirectories(more.resolve("text"));
    Files.writeString(more.resolve("text/added.txt"), "added later\n");
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, WriterOptions.defaults())) {
      writer.append(List.of(new Path(more.toUri())), false);
      writer.delete(List.of("text/with space.txt"));
    }
    try (FSDataInputStream in = fs.open(p("text/added.txt"))) {
      assertEquals("added later\n", new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
    assertFalse(fs.exists(p("text/with space.txt")));
    // A stream opened on the older generation keeps reading it.
    assertArrayEquals(tree.files.get(SourceTree.BIG), before.readAllBytes());
    before.close();
  }
}
