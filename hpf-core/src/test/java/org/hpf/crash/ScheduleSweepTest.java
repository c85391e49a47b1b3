package org.hpf.crash;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.hpf.crash.ScheduleExplorer.Actor;
import org.hpf.crash.ScheduleExplorer.Place;
import org.hpf.testing.MemoryTempDirs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every pair schedule of the writers, on the local file system (a rename commit, a journal and
 * a fenced lock) and under an object store's commit rules on local disk (a conditional create,
 * no rename, no journal, an advisory lock): for every storage call of A, A is held there while B
 * runs to its end ({@link ScheduleExplorer}). Where B would wait on A's lock, B also runs
 * breaking it ({@code --break-lock}) and, on the local file system, taking it over as a dead
 * holder's ({@link ExpiredLeaseView}: on HDFS, a holder paused past its lease's soft limit; an
 * object store has no lease, and there only a holder whose process is gone is taken over, so
 * it cannot go on). The fast tier holds A before every seventh call.
 */
class ScheduleSweepTest {
  @TempDir(factory = MemoryTempDirs.class) Path tmp;

  private static final List<String> DELETED = List.of("base/m2", "base/m3");

  private ScheduleExplorer explorer(boolean objectStoreRules) {
    Place place = objectStoreRules ? ScheduleExplorer.conditionalLocalDisk(tmp)
        : ScheduleExplorer.localDisk(tmp);
    return new ScheduleExplorer(place);
  }

  private void sweep(boolean objectStoreRules, Actor a, Actor b) throws Exception {
    explorer(objectStoreRules).sweepAndCheck(a, b);
  }

  /** As {@link #sweep}, on the local file system; B took A's lock over in some schedules. */
  private void sweepTakingOver(Actor a, Actor b) throws Exception {
    int before = ExpiredLeaseView.takeoversBegun();
    sweep(false, a, ScheduleExplorer.takingOver(b));
    assertTrue(ExpiredLeaseView.takeoversBegun() > before, "no schedule took A's lock over");
  }

  @ParameterizedTest(name = "object store rules: {0}")
  @ValueSource(booleans = {false, true})
  void anAppendWhileAnotherBreaksItsLockAndAppends(boolean objectStoreRules) throws Exception {
    sweep(objectStoreRules, ScheduleExplorer.append("a", false),
        ScheduleExplorer.append("b", true));
  }

  @ParameterizedTest(name = "object store rules: {0}")
  @ValueSource(booleans = {false, true})
  void anAppendWhileRecoveryBreaksItsLock(boolean objectStoreRules) throws Exception {
    sweep(objectStoreRules, ScheduleExplorer.append("a", false), ScheduleExplorer.recover(true));
  }

  @ParameterizedTest(name = "object store rules: {0}")
  @ValueSource(booleans = {false, true})
  void aDeleteWhileAnAppendBreaksItsLock(boolean objectStoreRules) throws Exception {
    sweep(objectStoreRules, ScheduleExplorer.delete(DELETED, false),
        ScheduleExplorer.append("b", true));
  }

  @ParameterizedTest(name = "object store rules: {0}")
  @ValueSource(booleans = {false, true})
  void aCompactionWhileRecoveryBreaksItsLock(boolean objectStoreRules) throws Exception {
    sweep(objectStoreRules, ScheduleExplorer.compact(false), ScheduleExplorer.recover(true));
  }

  @ParameterizedTest(name = "object store rules: {0}")
  @ValueSource(booleans = {false, true})
  void anAppendWhileADeleteWaitsForTheLock(boolean objectStoreRules) throws Exception {
    sweep(objectStoreRules, ScheduleExplorer.append("a", false),
        ScheduleExplorer.delete(DELETED, false));
  }

  @ParameterizedTest(name = "object store rules: {0}")
  @ValueSource(booleans = {false, true})
  void aCreateWhileRecoveryBreaksItsLock(boolean objectStoreRules) throws Exception {
    sweep(objectStoreRules, ScheduleExplorer.create("a"), ScheduleExplorer.recover(true));
  }

  @Test
  void anAppendWhileAnotherTakesItsLockOverAndAppends() throws Exception {
    sweepTakingOver(ScheduleExplorer.append("a", false), ScheduleExplorer.append("b", false));
  }

  @Test
  void aDeleteWhileAnAppendTakesItsLockOver() throws Exception {
    sweepTakingOver(ScheduleExplorer.delete(DELETED, false), ScheduleExplorer.append("b", false));
  }

  @Test
  void aCompactionWhileRecoveryTakesItsLockOver() throws Exception {
    sweepTakingOver(ScheduleExplorer.compact(false), ScheduleExplorer.recover(false));
  }

  @Test
  void aCreateWhileRecoveryTakesItsLockOver() throws Exception {
    sweepTakingOver(ScheduleExplorer.create("a"), ScheduleExplorer.recover(false));
  }

  @ParameterizedTest(name = "object store rules: {0}")
  @ValueSource(booleans = {false, true})
  void aCreateWhileAnotherCreatesTheSamePath(boolean objectStoreRules) throws Exception {
    sweep(objectStoreRules, ScheduleExplorer.create("a"), ScheduleExplorer.create("b"));
  }
}
