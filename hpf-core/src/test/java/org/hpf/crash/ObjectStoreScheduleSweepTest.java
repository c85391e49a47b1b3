package org.hpf.crash;

import java.io.IOException;
import java.util.List;
import org.hpf.minicluster.S3Server;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pair schedules of the writers on an object store (S3 server on 127.0.0.1), where the commit is
 * a conditional create and the lock only keeps honest writers apart: 12 schedules, A held before
 * calls where commits are decided (the manifests, the lock) and before calls spread over the
 * rest. (Every schedule of the same pair runs under the same commit rules on local disk in
 * {@link ScheduleSweepTest}, at a local disk's speed; a schedule here takes seconds.)
 */
@Tag("s3")
class ObjectStoreScheduleSweepTest {
  @TempDir(factory = org.hpf.testing.MemoryTempDirs.class) java.nio.file.Path tmp;

  private static S3Server server;

  @BeforeAll
  static void startServer() throws IOException {
    server = S3Server.shared();
  }

  private static ScheduleExplorer explorer() {
    return new ScheduleExplorer(ScheduleExplorer.objectStore(server));
  }

  @Test
  void anAppendHeldAnywhereWhileAnotherBreaksItsLockAndAppends() throws Exception {
    ScheduleExplorer explorer = explorer();
    int run = explorer.sample(ScheduleExplorer.append("a", false),
        ScheduleExplorer.append("b", true), 12);
    System.out.println("append x append (break-lock), object store: " + run + " schedules");
    explorer.assertNoFailures();
  }

  /** The MapReduce build's pair, sampled: its commit held while its failed driver cleans up. */
  @ParameterizedTest(name = "creates: {0}")
  @ValueSource(booleans = {false, true})
  void aJobCommitHeldWhileTheDriverOfTheFailedJobCleansUp(boolean creates) throws Exception {
    JobScheduleSweepTest.sample(ScheduleExplorer.objectStore(server), tmp, creates, 3);
  }

  /**
   * B breaks A's lock (4 calls), the reader opens generation 2 and its names and index files
   * (4 calls); then A and B commit, and retention removes generation 2's files. The reader's
   * next read of the index file meets a stream S3A gave up on ("Stream is closed!"): it must
   * end stale, as where the read says "not found" (seed 9 of 60 chains on the S3 server).
   */
  @Test
  void aReaderWhoseFilesRetentionRemovedEndsStale() throws Exception {
    List<ChainExplorer.Segment> chain = ChainExplorer.chain(9, 3);
    ChainSweepTest.replay(ScheduleExplorer.objectStore(server),
        ChainSweepTest.twoWritersAndAReader(), chain.toArray(ChainExplorer.Segment[]::new));
  }

  /**
   * Chains of three actors (two writers, one breaking the other's lock, and a reader), from
   * the first seeds of the chains {@link ChainSweepTest} runs on local disk.
   */
  @Test
  void chainsOfTwoWritersAndAReader() throws Exception {
    ChainSweepTest.sample(ScheduleExplorer.objectStore(server), ChainSweepTest.SAMPLED_CHAINS);
  }
}
