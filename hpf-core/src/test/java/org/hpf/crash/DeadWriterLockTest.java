package org.hpf.crash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSClientAdapter;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.hpf.ArchiveLockedException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.Recovery;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer that died does not lock the archive until someone breaks the lock by hand: the next
 * writer takes over when the dead writer's process is gone (same host) or its HDFS lease expired
 * (any host), and never while the holder lives.
 */
@Tag("hdfs")
@Tag("slow")
class DeadWriterLockTest {
  /** HDFS's defaults, restored for the other tests on the shared cluster. */
  private static final long DEFAULT_SOFT_LIMIT_MS = 60_000;
  private static final long DEFAULT_HARD_LIMIT_MS = 1_200_000;

  @TempDir Path tmp;

  private static org.apache.hadoop.fs.Path newArchive(Configuration conf, String name)
      throws Exception {
    org.apache.hadoop.fs.Path archive = MiniDfs.shared().fileSystem().makeQualified(
        new org.apache.hadoop.fs.Path("/" + name + "-" + System.nanoTime() + ".hpf"));
    try (ArchiveWriter writer = ArchiveWriter.create(conf, archive, WriterOptions.defaults())) {
      writer.add("seed", new byte[] {7}, 0);
      writer.commit();
    }
    return archive;
  }

  @Test
  void aWriterProcessKilledMidAppendIsTakenOverByTheNextWriter() throws Exception {
    Configuration conf = MiniDfs.shared().configuration();
    org.apache.hadoop.fs.Path archive = newArchive(conf, "killed");
    Path journaled = tmp.resolve("journaled");
    Process writer = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        // A short-lived process: start fast.
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), SlowAppender.class.getName(),
        archive.toString(), journaled.toString())
        .redirectErrorStream(true).redirectOutput(tmp.resolve("writer.txt").toFile()).start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!Files.exists(journaled)) {
        assertTrue(writer.isAlive(), () -> "the writer ended: " + read(tmp.resolve("writer.txt")));
        assertTrue(System.nanoTime() < deadline, "the writer journaled nothing in 120 s");
        Thread.sleep(20);
      }
      // While it lives, its lock holds.
      assertThrows(ArchiveLockedException.class,
          () -> ArchiveWriter.open(conf, archive, WriterOptions.defaults()).close());
    } finally {
      writer.destroyForcibly(); // kill -9: no shutdown hook closes its files
      writer.waitFor();
    }
    // No --break-lock: the next writer sees the holder's process is gone and takes over.
    Recovery.Report report;
    try (ArchiveWriter next = ArchiveWriter.open(conf, archive, WriterOptions.defaults())) {
      report = next.recovery();
      next.add("after", new byte[] {8}, 0);
      next.commit();
    }
    assertTrue(report.rolledForward(), report.describe());
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      assertTrue(reader.manifest().fileCount() >= 2 + 20, "" + reader.manifest().fileCount());
      for (int i = 0; i < 20; i++) { // journaled in batches of 4 before the kill
        assertArrayEquals(("member " + i).getBytes(StandardCharsets.UTF_8),
            reader.get("slow/m-" + i));
      }
      assertArrayEquals(new byte[] {8}, reader.get("after"));
    }
  }

  @Test
  void aLockWhoseHdfsLeaseExpiredIsTakenOverAndALiveOneIsNot() throws Exception {
    MiniDfs dfs = MiniDfs.shared();
    Configuration conf = dfs.configuration();
    org.apache.hadoop.fs.Path archive = newArchive(conf, "lease");
    // A writer on another host: its pid means nothing here, only its lease can tell.
    Configuration other = new Configuration(conf);
    other.setBoolean("fs.hdfs.impl.disable.cache", true);
    other.setInt(HdfsClientConfigKeys.Retry.MAX_ATTEMPTS_KEY, 0);
    DistributedFileSystem ghost = (DistributedFileSystem) FileSystem.newInstance(
        archive.toUri(), other);
    FSDataOutputStream lock = ghost.create(new org.apache.hadoop.fs.Path(archive,
        ArchiveLayout.LOCK), false);
    lock.write("writer by ghost@elsewhere.example (pid 1) since 2026-11-23T00:00:00Z\n"
        .getBytes(StandardCharsets.UTF_8));
    lock.hflush();
    try {
      ArchiveLockedException live = assertThrows(ArchiveLockedException.class,
          () -> ArchiveWriter.open(conf, archive, WriterOptions.defaults()).close());
      assertTrue(live.getMessage().contains("ghost@elsewhere.example"), live.getMessage());

      // The ghost stops renewing (as a dead client does); past the soft limit it is gone.
      DFSClientAdapter.stopLeaseRenewer(ghost);
      dfs.cluster().setLeasePeriod(1_000, 3_600_000);
      Thread.sleep(2_500);
      try (ArchiveWriter next = ArchiveWriter.open(conf, archive, WriterOptions.defaults())) {
        next.add("taken-over", new byte[] {9}, 0);
        next.commit();
      }
    } finally {
      dfs.cluster().setLeasePeriod(DEFAULT_SOFT_LIMIT_MS, DEFAULT_HARD_LIMIT_MS);
      try {
        ghost.close();
      } catch (java.io.IOException e) {
        // its lease is gone: closing the stream fails, as it would for a dead client
      }
    }
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      assertArrayEquals(new byte[] {9}, reader.get("taken-over"));
    }
    assertFalse(dfs.fileSystem().exists(new org.apache.hadoop.fs.Path(archive,
        ArchiveLayout.LOCK_TAKEOVER)));
  }


  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      return e.toString();
    }
  }
}
