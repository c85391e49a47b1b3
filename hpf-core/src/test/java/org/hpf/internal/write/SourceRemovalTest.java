package org.hpf.internal.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
    ArchiveCreator.create(conf, archive, List.of(root), WriterOptions.builder().threads(2).build());

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
    ArchiveCreator.create(conf, archive, List.of(root), WriterOptions.builder().threads(2).build());

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
}
