package org.hpf.crash;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Pair schedules of the writers on HDFS (the shared MiniDFSCluster; each actor a client of its
 * own, with its own leases): 10 schedules, A held before calls where commits are decided (the
 * manifests, the lock) and before calls spread over the rest. (Every schedule of the same pairs
 * runs on the local file system, under the same rename commit, journal and fenced lock, in
 * {@link ScheduleSweepTest}.)
 */
@Tag("hdfs")
class HdfsScheduleSweepTest {
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
   * Chains of three actors (two writers, one breaking the other's lock, and a reader), from
   * the first seeds of the chains {@link ChainSweepTest} runs on local disk.
   */
  @Test
  void chainsOfTwoWritersAndAReader() throws Exception {
    ChainSweepTest.sample(ScheduleExplorer.hdfs(dfs), 2);
  }
}
