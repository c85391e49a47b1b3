package org.hpf.crash;

import java.nio.file.Path;
import java.util.List;
import org.hpf.crash.ScheduleExplorer.Actor;
import org.hpf.crash.ScheduleExplorer.Place;
import org.hpf.testing.MemoryTempDirs;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every pair schedule of the writers, on the local file system (a rename commit, a journal and
 * a fenced lock) and under an object store's commit rules on local disk (a conditional create,
 * no rename, no journal, an advisory lock): for every storage call of A, A is held there while B
 * runs to its end ({@link ScheduleExplorer}). The fast tier holds A before every seventh call.
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

  @ParameterizedTest(name = "object store rules: {0}")
  @ValueSource(booleans = {false, true})
  void aCreateWhileAnotherCreatesTheSamePath(boolean objectStoreRules) throws Exception {
    sweep(objectStoreRules, ScheduleExplorer.create("a"), ScheduleExplorer.create("b"));
  }
}
