package org.hpf.crash;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pair schedules of the writers on HDFS (the shared MiniDFSCluster; each actor a client of its
 * own, with its own leases): 10 schedules, A held before calls where commits are decided (the
 * manifests, the lock) and before calls spread over the rest. (Every schedule of the same pairs
 * runs on the local file system, under the same rename commit, journal and fenced lock, in
 * {@link ScheduleSweepTest}.)
 */
@Tag("hdfs")
class HdfsScheduleSweepTest {
  @TempDir(factory = org.hpf.testing.MemoryTempDirs.class) java.nio.file.Path tmp;

  private static MiniDfs dfs;

  @BeforeAll
  static void startCluster() throws IOException {
    dfs = MiniDfs.shared();
  }

  @Test
  void anAppendHeldWhileAnotherBreaksItsLockAndAppends() throws Exception {
    ScheduleExplorer explorer = new ScheduleExplorer(ScheduleExplorer.hdfs(dfs));
    int run = explorer.sample(ScheduleExplorer.append("a", false),
        ScheduleExplorer.append("b", true), 10);
    System.out.println("append x append (break-lock), HDFS: " + run + " schedules");
    explorer.assertNoFailures();
  }

  /**
   * The same pair with B on another machine, taking over the lock of A paused past its lease's
   * soft limit: B recovers the lease of A's lock file, as a takeover does, while A's client is
   * alive.
   */
  @Test
  void anAppendHeldWhileAnotherTakesItsLockOverAndAppends() throws Exception {
    ScheduleExplorer explorer = new ScheduleExplorer(ScheduleExplorer.hdfs(dfs));
    int before = ExpiredLeaseView.takeoversBegun();
    int run = explorer.sample(ScheduleExplorer.append("a", false),
        ScheduleExplorer.takingOver(ScheduleExplorer.append("b", false)), 4);
    System.out.println("append x append (takes over), HDFS: " + run + " schedules");
    explorer.assertNoFailures();
    assertTrue(ExpiredLeaseView.takeoversBegun() > before, "no schedule took A's lock over");
  }

  /**
   * A recovery of a writer that died with its journal and a part open (its client alive, its
   * leases renewed), held before each lease recovery it starts while another writer breaks its
   * lock, recovers the archive itself, and appends. The held recovery must then find its lock
   * lost before it recovers another lease: the file it named is gone, or another writer's.
   */
  @Test
  void aRecoveryHeldBeforeEachLeaseRecoveryWhileAnotherBreaksItsLock() throws Exception {
    List<FileSystem> dead = new ArrayList<>();
    try {
      ScheduleExplorer explorer = new ScheduleExplorer(ScheduleExplorer.hdfs(dfs))
          .preparing(archive -> dieMidAppend(archive, dead));
      int run = explorer.sweepWhere(ScheduleExplorer.recover(true),
          ScheduleExplorer.append("b", true), call -> call.startsWith("recoverLease _journal-")
              || call.startsWith("recoverLease part-"));
      System.out.println("recover (break-lock) held before its lease recoveries x append "
          + "(break-lock), HDFS: " + run + " schedules");
      assertTrue(run > 0, "the recovery recovered no lease");
      explorer.assertNoFailures();
    } finally {
      for (FileSystem client : dead) {
        client.close();
      }
    }
  }

  /**
   * An append on a client of its own that dies at its first write into a part: its lock,
   * journal and part stay open under that client's lease, which it keeps renewing.
   */
  private static void dieMidAppend(Path archive, List<FileSystem> clients) throws IOException {
    FileSystem client = FileSystem.newInstance(dfs.cluster().getURI(), dfs.configuration());
    clients.add(client);
    CrashingStorage storage = new CrashingStorage(
        HdfsIntegration.storage(client, client.makeQualified(archive)),
        operation -> operation.startsWith("write part-"));
    try (ArchiveWriter writer = ArchiveWriter.open(dfs.configuration(), storage,
        ScheduleExplorer.options(false))) {
      writer.add("lost/n0", new byte[500], 1_000_000L);
      writer.commit();
    } catch (CrashingStorage.Crash expected) {
      // died
    }
    assertTrue(storage.crashed(), "the append did not die");
    assertTrue(client.listStatus(archive, p -> p.getName().startsWith("_journal-")).length > 0,
        "the append died before its journal was created");
  }

  /** The MapReduce build's pair, sampled: its commit held while its failed driver cleans up. */
  @ParameterizedTest(name = "creates: {0}")
  @ValueSource(booleans = {false, true})
  void aJobCommitHeldWhileTheDriverOfTheFailedJobCleansUp(boolean creates) throws Exception {
    JobScheduleSweepTest.sample(ScheduleExplorer.hdfs(dfs), tmp, creates, 3);
  }

  /**
   * Chains of three actors (two writers, one breaking the other's lock, and a reader), from
   * the first seeds of the chains {@link ChainSweepTest} runs on local disk.
   */
  @Test
  void chainsOfTwoWritersAndAReader() throws Exception {
    ChainSweepTest.sample(ScheduleExplorer.hdfs(dfs), ChainSweepTest.SAMPLED_CHAINS);
  }
}
