package org.hpf.crash;

import java.nio.file.Path;
import org.hpf.testing.MemoryTempDirs;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every pair schedule of the MapReduce build's two actors, on the local file system (the job
 * commit's manifest rename, fenced by the job's token in the lock) and under an object store's
 * commit rules on local disk (its conditional create, parts written in place): the job commit
 * held before each of its storage calls while the driver of a job that failed runs whole, and
 * the other way round ({@link ScheduleExplorer}, {@link JobSchedule}). The fast tier holds the
 * first actor before every seventh call.
 */
class JobScheduleSweepTest {
  @TempDir(factory = MemoryTempDirs.class) Path tmp;

  private void sweep(boolean objectStoreRules, boolean commitHeld) throws Exception {
    ScheduleExplorer.Place place = objectStoreRules ? ScheduleExplorer.conditionalLocalDisk(tmp)
        : ScheduleExplorer.localDisk(tmp);
    JobSchedule job = new JobSchedule(place, tmp);
    new ScheduleExplorer(place).preparing(job::prepare).sweepAndCheck(
        commitHeld ? job.commit() : job.driver(), commitHeld ? job.driver() : job.commit());
  }

  @ParameterizedTest(name = "object store rules: {0}")
  @ValueSource(booleans = {false, true})
  void aJobCommitHeldWhileTheDriverOfTheFailedJobCleansUp(boolean objectStoreRules)
      throws Exception {
    sweep(objectStoreRules, true);
  }

  @ParameterizedTest(name = "object store rules: {0}")
  @ValueSource(booleans = {false, true})
  void theDriverOfAFailedJobHeldWhileTheJobCommitRuns(boolean objectStoreRules)
      throws Exception {
    sweep(objectStoreRules, false);
  }
}
