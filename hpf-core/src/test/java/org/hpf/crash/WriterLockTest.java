package org.hpf.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.ArchiveLockedException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One writer at a time, readers alongside it, and breaking the lock of a writer that died. */
class WriterLockTest {
  @TempDir Path tmp;

  private org.apache.hadoop.fs.Path archiveWithFiles(Configuration conf,
      org.apache.hadoop.fs.Path archive) throws Exception {
    Path src = tmp.resolve("src");
    Files.createDirectories(src);
    Files.writeString(src.resolve("one"), "1");
    Files.writeString(src.resolve("two"), "2");
    ArchiveCreator.create(conf, archive, List.of(hadoopPath(src)), WriterOptions.defaults());
    return archive;
  }

  private Path moreFiles(String name, String content) throws Exception {
    Path more = tmp.resolve("more-" + name);
    Files.createDirectories(more);
    Files.writeString(more.resolve(name), content);
    return more;
  }

  private static org.apache.hadoop.fs.Path hadoopPath(Path path) {
    return new org.apache.hadoop.fs.Path(path.toUri());
  }

  @Test
  void aSecondWriterIsToldWhoHoldsTheLock() throws Exception {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path archive = archiveWithFiles(conf, hadoopPath(tmp.resolve("a.hpf")));
    try (ArchiveWriter first = ArchiveWriter.open(conf, archive, WriterOptions.defaults())) {
      ArchiveLockedException e = assertThrows(ArchiveLockedException.class,
          () -> ArchiveWriter.open(conf, archive, WriterOptions.defaults()));
      assertTrue(e.getMessage().contains("is locked by writer by "), e.getMessage());
      assertTrue(e.getMessage().contains("--break-lock"), e.getMessage());
      first.append(List.of(hadoopPath(moreFiles("three", "3"))), false);
    }
    // Released: the next writer gets in and sees the first one's commit.
    try (ArchiveWriter second = ArchiveWriter.open(conf, archive, WriterOptions.defaults())) {
      assertEquals(3, second.manifest().fileCount());
    }
  }

  @Test
  void readersKeepTheirGenerationAndRefreshToTheNewest() throws Exception {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path archive = archiveWithFiles(conf, hadoopPath(tmp.resolve("b.hpf")));
    try (HpfReader before = HpfReader.open(conf, archive)) {
      assertNull(before.reopenIfChanged(), "nothing was committed yet");
      try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, WriterOptions.defaults())) {
        writer.append(List.of(hadoopPath(moreFiles("one", "new one"))), true);
        // The writer holds the lock; the reader needs none and still reads generation 1.
        assertEquals("1", new String(before.get("one"), StandardCharsets.UTF_8));
        assertEquals(1, before.generation());
      }
      try (HpfReader after = before.reopenIfChanged()) {
        assertNotNull(after);
        assertEquals(2, after.generation());
        assertEquals("new one", new String(after.get("one"), StandardCharsets.UTF_8));
        assertNull(after.reopenIfChanged());
      }
    }
  }

  @Test
  void aDeadWritersLockIsBrokenOnlyWhenAsked() throws Exception {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path archive = archiveWithFiles(conf, hadoopPath(tmp.resolve("c.hpf")));
    Files.writeString(tmp.resolve("c.hpf").resolve(ArchiveLayout.LOCK),
        "append by ghost@gone (pid 1) since 2026-01-01T00:00:00Z\n");
    ArchiveLockedException e = assertThrows(ArchiveLockedException.class,
        () -> ArchiveWriter.open(conf, archive, WriterOptions.defaults()));
    assertTrue(e.getMessage().contains("ghost@gone (pid 1)"), e.getMessage());
    ArchiveWriter.recover(conf, archive, WriterOptions.builder().breakLock(true).build());
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, WriterOptions.defaults())) {
      assertEquals(2, writer.manifest().fileCount());
    }
  }

  /**
   * On HDFS the lock is held by the writer's lease: a second client cannot create the lock file
   * while the first holds it open, and breaking the lock recovers the lease first.
   */
  @Test
  @Tag("hdfs")
  void onHdfsTheLeaseHoldsTheLock() throws Exception {
    MiniDfs dfs = MiniDfs.shared();
    Configuration conf = dfs.configuration();
    org.apache.hadoop.fs.Path archive =
        archiveWithFiles(conf, new org.apache.hadoop.fs.Path("/locks/d.hpf"));
    // Another client (its own DFSClient and lease) holds the lock file open, as a writer would.
    FileSystem other = FileSystem.newInstance(dfs.cluster().getURI(), conf);
    FSDataOutputStream held = other.create(new org.apache.hadoop.fs.Path(archive,
        ArchiveLayout.LOCK), false);
    held.write("writer by other@host (pid 2)\n".getBytes(StandardCharsets.UTF_8));
    held.hflush();
    ArchiveLockedException e = assertThrows(ArchiveLockedException.class,
        () -> ArchiveWriter.open(conf, archive, WriterOptions.defaults()));
    assertTrue(e.getMessage().contains("other@host"), e.getMessage());
    // That client dies (its stream is abandoned); breaking the lock recovers its lease.
    ArchiveWriter.recover(conf, archive, WriterOptions.builder().breakLock(true).build());
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, WriterOptions.defaults())) {
      writer.append(List.of(hadoopPath(moreFiles("after", "x"))), false);
      assertEquals(3, writer.manifest().fileCount());
    }
    other.close();
  }
}
