package org.hpf.internal.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.SourceException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.read.HpfReader;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Removing archived sources: only verified files go, and a crash at any point loses nothing. */
class SourceRemovalTest {
  @TempDir java.nio.file.Path tmp;

  /** Writes {@code count} files in nested directories below {@code root}; name to bytes. */
  private static Map<String, byte[]> tree(FileSystem fs, Path root, int count, long seed)
      throws IOException {
    Random random = new Random(seed);
    Map<String, byte[]> files = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      byte[] bytes = new byte[i == 0 ? 0 : 1 + random.nextInt(3000)];
      random.nextBytes(bytes);
      String name = "d" + (i % 4) + "/s" + (i % 3) + "/f" + i;
      write(fs, new Path(root, name), bytes);
      files.put(name, bytes);
    }
    return files;
  }

  private static void write(FileSystem fs, Path file, byte[] bytes) throws IOException {
    try (FSDataOutputStream out = fs.create(file, true)) {
      out.write(bytes);
    }
  }

  private static void assertArchiveHolds(Configuration conf, Path archive,
      Map<String, byte[]> files) throws IOException {
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      for (Map.Entry<String, byte[]> e : files.entrySet()) {
        assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
      }
    }
  }

  private static long countFiles(FileSystem fs, Path dir) throws IOException {
    return fs.getContentSummary(dir).getFileCount();
  }

  private static final SourceRemoval.Options RUN = new SourceRemoval.Options(false, 3);
  private static final SourceRemoval.Options DRY = new SourceRemoval.Options(true, 3);

  @Test
  void keepsWhatDiffersAndRemovesTheRestOnTheLocalFileSystem() throws IOException {
    Configuration conf = new Configuration();
    FileSystem fs = FileSystem.getLocal(conf).getRaw();
    Path root = new Path(tmp.resolve("src").toUri());
    Map<String, byte[]> files = tree(fs, root, 60, 1);
    Path archive = new Path(tmp.resolve("a.hpf").toUri());
    ArchiveCreator.create(conf, archive, List.of(root), WriterOptions.builder()
        .settings(s -> s.threads(2)).build());

    byte[] changed = files.get("d1/s1/f1").clone();
    changed[0] ^= 1; // same length, other bytes
    write(fs, new Path(root, "d1/s1/f1"), changed);
    write(fs, new Path(root, "d2/s2/f2"), new byte[] {1, 2, 3}); // other length
    write(fs, new Path(root, "d3/new"), new byte[] {4}); // not archived

    SourceRemoval.Result dry = SourceRemoval.run(conf, archive, List.of(root), DRY);
    assertEquals(58, dry.filesDeleted());
    assertEquals(3, dry.filesKept());
    assertEquals(61, fs.getContentSummary(root).getFileCount(), "a dry run deletes nothing");

    SourceRemoval.Result run = SourceRemoval.run(conf, archive, List.of(root), RUN);
    assertEquals(dry.filesDeleted(), run.filesDeleted());
    assertEquals(dry.directoriesRemoved(), run.directoriesRemoved());
    assertEquals(3, run.filesKept());
    String kept = String.join("\n", run.firstKept());
    assertTrue(kept.contains("f1: its bytes differ"), kept);
    assertTrue(kept.contains("f2: its length 3 differs"), kept);
    assertTrue(kept.contains("new: not in the archive"), kept);
    assertEquals(3, fs.getContentSummary(root).getFileCount());
    assertTrue(fs.exists(root), "a source root stays");
    assertFalse(fs.exists(new Path(root, "d0")), "an emptied directory goes");
    assertArchiveHolds(conf, archive, files);
  }

  @Test
  void refusesARootHoldingTheArchive() throws IOException {
    Configuration conf = new Configuration();
    FileSystem fs = FileSystem.getLocal(conf).getRaw();
    Path root = new Path(tmp.resolve("src").toUri());
    tree(fs, root, 3, 2);
    Path archive = new Path(root, "inside.hpf");
    ArchiveCreator.create(conf, archive, List.of(new Path(root, "d0")), WriterOptions.defaults());
    SourceException e = assertThrows(SourceException.class,
        () -> SourceRemoval.run(conf, archive, List.of(root), RUN));
    assertTrue(e.getMessage().contains("inside the source"), e.getMessage());
    assertEquals(3, fs.listFiles(root, true).hasNext() ? countFiles(fs, root) - countFiles(fs,
        archive) : 0, "nothing was deleted");
  }

  @Test
  @Tag("hdfs")
  @Tag("slow")
  void onHdfsTheObjectsFreedAreTheDryRunsAndACrashLosesNothing() throws IOException {
    MiniDfs dfs = MiniDfs.shared();
    Configuration conf = dfs.configuration();
    FileSystem fs = dfs.fileSystem();
    Path root = fs.makeQualified(new Path("/removal-" + System.nanoTime()));
    Map<String, byte[]> files = tree(fs, root, 80, 3);
    Path archive = fs.makeQualified(new Path(root.getParent(), root.getName() + ".hpf"));
    ArchiveCreator.create(conf, archive, List.of(root), WriterOptions.builder()
        .settings(s -> s.threads(2)).build());

    ContentSummary before = fs.getContentSummary(root);
    SourceRemoval.Result dry = SourceRemoval.run(conf, archive, List.of(root), DRY);
    assertEquals(80, dry.filesDeleted());
    assertEquals(79, dry.blocksFreed(), "one block per non-empty file");

    // A crash between verifying a file and deleting it, half way through.
    AtomicInteger seen = new AtomicInteger();
    assertThrows(IOException.class, () -> SourceRemoval.run(conf, archive, List.of(root), RUN,
        file -> {
          if (seen.incrementAndGet() == 40) {
            throw new IOException("crash injected before deleting " + file);
          }
        }));
    long left = fs.getContentSummary(root).getFileCount();
    assertTrue(left > 0 && left < 80, "left: " + left);
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      Path file = new Path(root, e.getKey());
      if (fs.exists(file)) {
        try (var in = fs.open(file)) {
          assertArrayEquals(e.getValue(), in.readAllBytes(), "a kept file is untouched");
        }
      }
    }
    assertArchiveHolds(conf, archive, files);

    // The same command again finishes the work.
    SourceRemoval.Result rerun = SourceRemoval.run(conf, archive, List.of(root), RUN);
    assertEquals(left, rerun.filesDeleted());
    assertEquals(0, rerun.filesKept());
    ContentSummary after = fs.getContentSummary(root);
    assertEquals(0, after.getFileCount());
    assertEquals(1, after.getDirectoryCount(), "only the root is left");
    assertEquals(dry.directoriesRemoved(), before.getDirectoryCount() - 1);
    assertArchiveHolds(conf, archive, files);
  }

  /** Other bytes of the same length, written into the same local file or a new one. */
  private static void rewriteLocally(Path file, boolean replace) throws IOException {
    java.nio.file.Path local = java.nio.file.Path.of(file.toUri());
    FileTime mtime = Files.getLastModifiedTime(local);
    byte[] bytes = Files.readAllBytes(local);
    bytes[0] ^= 1;
    if (replace) {
      Files.delete(local);
      Files.write(local, bytes);
    } else {
      try (RandomAccessFile in = new RandomAccessFile(local.toFile(), "rw")) {
        in.write(bytes);
      }
    }
    Files.setLastModifiedTime(local, mtime); // the modification time alone tells nothing
  }

  private static boolean named(Path file, String name) {
    return file.toUri().getPath().endsWith("/" + name);
  }

  private static String kept(SourceRemoval.Result result) {
    return String.join("\n", result.firstKept());
  }

  @Test
  void aSourceChangedBetweenItsVerificationAndItsDeleteIsKept() throws IOException {
    Configuration conf = new Configuration();
    FileSystem fs = FileSystem.getLocal(conf).getRaw();
    Path root = new Path(tmp.resolve("src").toUri());
    Map<String, byte[]> files = tree(fs, root, 12, 4);
    Path archive = new Path(tmp.resolve("a.hpf").toUri());
    ArchiveCreator.create(conf, archive, List.of(root), WriterOptions.builder()
        .settings(s -> s.threads(2)).build());

    SourceRemoval.Result run = SourceRemoval.run(conf, archive, List.of(root), RUN, file -> {
      if (named(file, "d1/s1/f1")) {
        rewriteLocally(file, false);
      } else if (named(file, "d2/s2/f2")) {
        rewriteLocally(file, true);
      }
    });
    assertEquals(2, run.filesKept(), kept(run));
    assertEquals(10, run.filesDeleted());
    assertTrue(kept(run).contains("f1: it changed after it was verified"), kept(run));
    assertTrue(kept(run).contains("f2: it changed after it was verified"), kept(run));
    for (String name : List.of("d1/s1/f1", "d2/s2/f2")) {
      byte[] now = Files.readAllBytes(java.nio.file.Path.of(new Path(root, name).toUri()));
      assertEquals(files.get(name).length, now.length);
      assertEquals(files.get(name)[0] ^ 1, now[0], "the new bytes are still there: " + name);
    }
    assertArchiveHolds(conf, archive, files);
  }

  @Test
  void aMemberDamagedInTheArchiveKeepsItsSource() throws IOException {
    Configuration conf = new Configuration();
    FileSystem fs = FileSystem.getLocal(conf).getRaw();
    Path root = new Path(tmp.resolve("src").toUri());
    tree(fs, root, 12, 5);
    Path archive = new Path(tmp.resolve("a.hpf").toUri());
    ArchiveCreator.create(conf, archive, List.of(root), WriterOptions.builder()
        .settings(s -> s.threads(2)).build());
    damageMember(conf, archive, "d1/s1/f1");

    SourceRemoval.Result dry = SourceRemoval.run(conf, archive, List.of(root), DRY);
    assertEquals(1, dry.filesKept(), kept(dry));
    SourceRemoval.Result run = SourceRemoval.run(conf, archive, List.of(root), RUN);
    assertEquals(1, run.filesKept(), kept(run));
    assertEquals(11, run.filesDeleted());
    assertTrue(kept(run).contains("f1: its archived copy"), kept(run));
    assertTrue(fs.exists(new Path(root, "d1/s1/f1")));
  }

  /** Flips the last stored byte of a (stored, not compressed) member in its part file. */
  static void damageMember(Configuration conf, Path archive, String name) throws IOException {
    IndexRecord record;
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      record = reader.record(name);
    }
    java.nio.file.Path part = java.nio.file.Path.of(new Path(archive,
        ArchiveLayout.part(record.part())).toUri());
    try (RandomAccessFile file = new RandomAccessFile(part.toFile(), "rw")) {
      long at = record.offset() + record.entryLength() - EntryHeader.TRAILER_SIZE - 1;
      file.seek(at);
      int b = file.read();
      file.seek(at);
      file.write(b ^ 0x40);
    }
  }

  @Test
  @Tag("hdfs")
  void onHdfsASourceReplacedOrRewrittenBeforeItsDeleteIsKept() throws IOException {
    MiniDfs dfs = MiniDfs.shared();
    Configuration conf = dfs.configuration();
    FileSystem fs = dfs.fileSystem();
    Path root = fs.makeQualified(new Path("/changed-" + System.nanoTime()));
    Map<String, byte[]> files = tree(fs, root, 12, 6);
    Path archive = fs.makeQualified(new Path(root.getParent(), root.getName() + ".hpf"));
    ArchiveCreator.create(conf, archive, List.of(root), WriterOptions.builder()
        .settings(s -> s.threads(2)).build());
    byte[] differs = files.get("d3/s0/f3").clone();
    differs[0] ^= 1;
    write(fs, new Path(root, "d3/s0/f3"), differs); // same length, other bytes, before the run

    SourceRemoval.Result run = SourceRemoval.run(conf, archive, List.of(root), RUN, file -> {
      if (named(file, "d1/s1/f1")) { // deleted and created again: another HDFS file id
        byte[] bytes = files.get("d1/s1/f1").clone();
        bytes[0] ^= 1;
        long mtime = fs.getFileStatus(file).getModificationTime();
        fs.delete(file, false);
        write(fs, file, bytes);
        fs.setTimes(file, mtime, -1);
      } else if (named(file, "d2/s2/f2")) { // the same HDFS file, truncated and appended to
        byte[] bytes = files.get("d2/s2/f2").clone();
        bytes[0] ^= 1;
        long mtime = fs.getFileStatus(file).getModificationTime();
        assertTrue(fs.truncate(file, 0));
        try (FSDataOutputStream out = fs.append(file)) {
          out.write(bytes);
        }
        fs.setTimes(file, mtime, -1);
      }
    });
    assertEquals(3, run.filesKept(), kept(run));
    assertEquals(9, run.filesDeleted());
    assertTrue(kept(run).contains("f1: it changed after it was verified"), kept(run));
    assertTrue(kept(run).contains("f2: it changed after it was verified"), kept(run));
    assertTrue(kept(run).contains("f3: its bytes differ"), kept(run));
    for (String name : List.of("d1/s1/f1", "d2/s2/f2", "d3/s0/f3")) {
      try (var in = fs.open(new Path(root, name))) {
        assertEquals(files.get(name)[0] ^ 1, in.readAllBytes()[0], name);
      }
    }
    assertArchiveHolds(conf, archive, files);
  }

  /**
   * Files whose HDFS checksums are CRC32 (written by clients with dfs.checksum.type=CRC32, as on
   * a cluster configured so): HDFS cannot give their CRC32C, so removal reads them.
   */
  @Test
  @Tag("hdfs")
  void onHdfsFilesWithCrc32ChecksumsAreComparedByTheirBytes() throws IOException {
    MiniDfs dfs = MiniDfs.shared();
    Configuration conf = dfs.configuration();
    conf.set("dfs.checksum.type", "CRC32");
    try (FileSystem fs = FileSystem.newInstance(dfs.cluster().getURI(), conf)) {
      Path root = fs.makeQualified(new Path("/crc32-" + System.nanoTime()));
      Map<String, byte[]> files = tree(fs, root, 12, 7);
      var checksum = fs.getFileChecksum(new Path(root, "d1/s1/f1"));
      assertTrue(checksum.getAlgorithmName().endsWith("CRC32"), checksum.getAlgorithmName());
      Path archive = fs.makeQualified(new Path(root.getParent(), root.getName() + ".hpf"));
      ArchiveCreator.create(conf, archive, List.of(root),
          WriterOptions.builder().settings(s -> s.threads(2)).build());
      byte[] differs = files.get("d2/s2/f2").clone();
      differs[differs.length - 1] ^= 1;
      write(fs, new Path(root, "d2/s2/f2"), differs);

      SourceRemoval.Result run = SourceRemoval.run(conf, archive, List.of(root), RUN);
      assertEquals(1, run.filesKept(), kept(run));
      assertTrue(kept(run).contains("f2: its bytes differ"), kept(run));
      assertEquals(11, run.filesDeleted());
      assertArchiveHolds(conf, archive, files);
    }
  }

  /** Parts in a directory whose storage policy is LAZY_PERSIST are LAZY_PERSIST files too. */
  @Test
  @Tag("hdfs")
  void onHdfsSourcesArchivedInLazyPersistPartsAreKept() throws IOException {
    MiniDfs dfs = MiniDfs.shared();
    Configuration conf = dfs.configuration();
    FileSystem fs = dfs.fileSystem();
    Path root = fs.makeQualified(new Path("/lazy-" + System.nanoTime()));
    tree(fs, root, 4, 8);
    Path archive = fs.makeQualified(new Path(root.getParent(), root.getName() + ".hpf"));
    fs.mkdirs(archive);
    fs.setStoragePolicy(archive, "LAZY_PERSIST");
    ArchiveCreator.create(conf, archive, List.of(root), WriterOptions.builder()
        .settings(s -> s.threads(1)).build());

    SourceRemoval.Result run = SourceRemoval.run(conf, archive, List.of(root), RUN);
    assertEquals(0, run.filesDeleted(), kept(run));
    assertEquals(4, run.filesKept());
    assertTrue(kept(run).contains("a LAZY_PERSIST file"), kept(run));
    assertEquals(4, countFiles(fs, root));
  }
}
