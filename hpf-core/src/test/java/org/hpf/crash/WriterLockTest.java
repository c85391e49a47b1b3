package org.hpf.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;
import org.hpf.ArchiveLockedException;
import org.hpf.LockLostException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterLock;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One writer at a time, readers alongside it, breaking the lock of a writer that died, and a
 * writer whose lock was taken over: it removes nothing of the new holder's and commits nothing.
 */
class WriterLockTest {
  /** A lock line of another writer, as one on another machine would write it. */
  private static final String FOREIGN = "writer by other@elsewhere (pid 3) since "
      + "2026-01-01T00:00:00Z; token 0f0f0f0f-0000-4000-8000-000000000001; "
      + "boot 0f0f0f0f-0000-4000-8000-000000000002; pidns pid:[1]\n";

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
    try (ArchiveWriter first = ArchiveWriter.open(conf, archive,
        WriterOptions.builder().operation("append").build())) {
      ArchiveLockedException e = assertThrows(ArchiveLockedException.class,
          () -> ArchiveWriter.open(conf, archive, WriterOptions.defaults()));
      // The holder is alive in this process: named with its operation, and no lock breaking
      // advised.
      assertTrue(e.getMessage().contains("is locked by another writer in this process (append"
          + " by "), e.getMessage());
      assertTrue(e.getMessage().contains("close that writer first"), e.getMessage());
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
    ArchiveWriter.recover(conf, archive, WriterOptions.builder().settings(s -> s.breakLock(true))
        .build());
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
    ArchiveWriter.recover(conf, archive, WriterOptions.builder().settings(s -> s.breakLock(true))
        .build());
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, WriterOptions.defaults())) {
      writer.append(List.of(hadoopPath(moreFiles("after", "x"))), false);
      assertEquals(3, writer.manifest().fileCount());
    }
    other.close();
  }

  // ---- a lock that was taken over ----

  @Test
  void releaseLeavesTheLockOfTheWriterThatTookOver() throws Exception {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path archive = archiveWithFiles(conf, hadoopPath(tmp.resolve("e.hpf")));
    releaseLeavesTheNewHoldersLock(storage(conf, archive), () -> Files.writeString(
        tmp.resolve("e.hpf").resolve(ArchiveLayout.LOCK), FOREIGN));
  }

  @Test
  @Tag("hdfs")
  void onHdfsReleaseLeavesTheLockOfTheWriterThatTookOver() throws Exception {
    MiniDfs dfs = MiniDfs.shared();
    Configuration conf = dfs.configuration();
    org.apache.hadoop.fs.Path archive =
        archiveWithFiles(conf, new org.apache.hadoop.fs.Path("/locks/e.hpf"));
    try (FileSystem other = FileSystem.newInstance(dfs.cluster().getURI(), conf)) {
      releaseLeavesTheNewHoldersLock(storage(conf, archive), () -> holdLock(other, archive));
    }
  }

  /** Takes the lock, lets {@code takeOver} replace it, releases: the new lock stays. */
  private static void releaseLeavesTheNewHoldersLock(ArchiveStorage storage, TakeOver takeOver)
      throws Exception {
    WriterLock lock = WriterLock.acquire(storage, "writer", 1);
    WriterLock.breakStale(storage); // the holder is judged gone: its lock is removed ...
    takeOver.run(); // ... and another writer takes the lock
    try {
      lock.release();
    } catch (java.io.IOException e) {
      // a released lock that was lost may say so; what matters is the file below
    }
    assertTrue(storage.exists(ArchiveLayout.LOCK), "release removed the new holder's lock");
    assertTrue(read(storage).contains("other@elsewhere"), read(storage));
  }

  @Test
  void aWriterWhoseLockWasTakenOverCommitsNothing() throws Exception {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path archive = archiveWithFiles(conf, hadoopPath(tmp.resolve("f.hpf")));
    commitFailsWithLockLost(conf, archive, () -> Files.writeString(
        tmp.resolve("f.hpf").resolve(ArchiveLayout.LOCK), FOREIGN));
  }

  @Test
  @Tag("hdfs")
  void onHdfsAWriterWhoseLockWasTakenOverCommitsNothing() throws Exception {
    MiniDfs dfs = MiniDfs.shared();
    Configuration conf = dfs.configuration();
    org.apache.hadoop.fs.Path archive =
        archiveWithFiles(conf, new org.apache.hadoop.fs.Path("/locks/f.hpf"));
    try (FileSystem other = FileSystem.newInstance(dfs.cluster().getURI(), conf)) {
      commitFailsWithLockLost(conf, archive, () -> holdLock(other, archive));
    }
  }

  /**
   * A writer adds a member; its lock is taken over; its commit, and then a delete, fail with
   * {@link LockLostException} and the archive keeps its generation; closing it leaves the new
   * holder's lock.
   */
  private void commitFailsWithLockLost(Configuration conf, org.apache.hadoop.fs.Path archive,
      TakeOver takeOver) throws Exception {
    ArchiveStorage storage = storage(conf, archive);
    ArchiveWriter writer = ArchiveWriter.open(conf, archive, WriterOptions.defaults());
    try {
      writer.add("late", new byte[] {1}, 0);
      WriterLock.breakStale(storage);
      takeOver.run();
      LockLostException lost = assertThrows(LockLostException.class, writer::commit);
      assertTrue(lost.getMessage().contains("lock lost"), lost.getMessage());
      assertThrows(LockLostException.class, () -> writer.delete(List.of("one")));
    } finally {
      try {
        writer.close();
      } catch (LockLostException e) {
        // what it would have cleaned up is the new holder's to recover
      }
    }
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      assertEquals(1, reader.generation());
      assertEquals(2, reader.manifest().fileCount());
    }
    assertTrue(read(storage).contains("other@elsewhere"), read(storage));
  }

  // ---- who may be judged gone by its pid ----

  @Test
  void aDeadPidOnThisHostIsNotEvidenceWithoutTheSameBootId() throws Exception {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path archive = archiveWithFiles(conf, hadoopPath(tmp.resolve("g.hpf")));
    Path lockFile = tmp.resolve("g.hpf").resolve(ArchiveLayout.LOCK);
    String host = java.net.InetAddress.getLocalHost().getHostName();
    String holder = "writer by someone@" + host + " (pid " + deadPid()
        + ") since 2026-01-01T00:00:00Z";
    String token = "; token 0f0f0f0f-0000-4000-8000-000000000003";
    String bootId = kernelFile("/proc/sys/kernel/random/boot_id");
    String pidNamespace = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
    for (String line : List.of(
        holder, // written without a boot id: its pid cannot be judged
        holder + token + "; boot 0f0f0f0f-0000-4000-8000-000000000004; pidns " + pidNamespace,
        holder + token + "; boot " + bootId + "; pidns pid:[1]")) { // another pid namespace
      Files.writeString(lockFile, line + "\n");
      ArchiveLockedException e = assertThrows(ArchiveLockedException.class,
          () -> ArchiveWriter.open(conf, archive, WriterOptions.defaults()).close(), line);
      assertTrue(e.getMessage().contains(holder), e.getMessage());
    }
    // The same boot and pid namespace, and the process is gone: taken over.
    Files.writeString(lockFile, holder + token + "; boot " + bootId + "; pidns " + pidNamespace
        + "\n");
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, WriterOptions.defaults())) {
      assertEquals(2, writer.manifest().fileCount());
    }
    assertFalse(Files.exists(lockFile));
  }

  /**
   * A holder alive on this machine whose line cannot be read (on HDFS, the length of a lock file
   * whose writer was stopped may not be obtainable from the DataNodes), while the file system
   * says its writer is gone (its lease past the soft limit): the lock is not taken over, since
   * nothing shows the holder is not this machine's live process.
   */
  @Test
  void aLockWhoseLineCannotBeReadIsNotTakenOverOnTheLeaseAlone() throws Exception {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path archive = archiveWithFiles(conf, hadoopPath(tmp.resolve("u.hpf")));
    ArchiveStorage real = storage(conf, archive);
    WriterLock held = WriterLock.acquire(real, "append", 1);
    try {
      ArchiveStorage unreadable = new org.hpf.internal.io.ForwardingStorage(real) {
        @Override
        public org.hpf.internal.io.ArchiveInput open(String name) throws java.io.IOException {
          if (name.equals(ArchiveLayout.LOCK)) {
            throw new java.io.IOException("Cannot obtain block length for LocatedBlock");
          }
          return super.open(name);
        }

        @Override
        public boolean writerIsGone(String name) {
          return true;
        }
      };
      assertThrows(ArchiveLockedException.class, () -> WriterLock.acquire(unreadable, "append", 1));
      assertTrue(read(real).contains("append by "), "the holder's lock is still there");
    } finally {
      held.release();
    }
  }

  /**
   * A pid no process has: the kernel's limit (a pid that ended may be reused at once, by a
   * thread of this JVM even, whose id is a pid too).
   */
  private static long deadPid() throws Exception {
    return Long.parseLong(kernelFile("/proc/sys/kernel/pid_max"));
  }

  /** Read to the end: such files report no size, and reading them by size can stop short. */
  private static String kernelFile(String path) throws Exception {
    try (java.io.InputStream in = Files.newInputStream(Path.of(path))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
  }

  /** Replaces the lock, as a writer that took it over would. */
  @FunctionalInterface
  private interface TakeOver {
    void run() throws Exception;
  }

  /** Another client (its own DFSClient and lease) creates and holds the lock file. */
  private static void holdLock(FileSystem other, org.apache.hadoop.fs.Path archive)
      throws java.io.IOException {
    FSDataOutputStream held = other.create(new org.apache.hadoop.fs.Path(archive,
        ArchiveLayout.LOCK), false);
    held.write(FOREIGN.getBytes(StandardCharsets.UTF_8));
    // Its length reaches the NameNode, so that readers of the open file see the line.
    ((HdfsDataOutputStream) held).hsync(EnumSet.of(HdfsDataOutputStream.SyncFlag.UPDATE_LENGTH));
  }

  private static ArchiveStorage storage(Configuration conf, org.apache.hadoop.fs.Path archive)
      throws java.io.IOException {
    return HdfsIntegration.storage(archive.getFileSystem(conf), archive);
  }

  private static String read(ArchiveStorage storage) throws java.io.IOException {
    try (var in = storage.open(ArchiveLayout.LOCK)) {
      return new String(in.readFully(0, (int) in.length()), StandardCharsets.UTF_8);
    }
  }
}
