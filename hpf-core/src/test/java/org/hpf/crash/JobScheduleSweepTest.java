package org.hpf.crash;

import java.nio.file.Path;
import org.hpf.testing.MemoryTempDirs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every pair schedule of the MapReduce build's two actors, on the local file system (the job
 * commit's manifest rename, fenced by the job's token in the lock) and under an object store's
 * commit rules on local disk (its conditional create, parts written in place): the job commit
 * held before each of its storage calls while the driver of a job that failed runs whole, and
 * the other way round ({@link ScheduleExplorer}, {@link JobSchedule}); for a build that appends
 * and one that creates the archive. The fast tier holds the
 * first actor before every seventh call.
 */
class JobScheduleSweepTest {
  @TempDir(factory = MemoryTempDirs.class) Path tmp;

  private void sweep(boolean objectStoreRules, boolean commitHeld) throws Exception {
    sweep(objectStoreRules, commitHeld, false);
  }

  private void sweep(boolean objectStoreRules, boolean commitHeld, boolean creates)
      throws Exception {
    ScheduleExplorer.Place place = objectStoreRules ? ScheduleExplorer.conditionalLocalDisk(tmp)
        : ScheduleExplorer.localDisk(tmp);
    JobSchedule job = new JobSchedule(place, tmp, creates);
    new ScheduleExplorer(place).preparing(job::prepare).sweepAndCheck(
        commitHeld ? job.commit() : job.driver(), commitHeld ? job.driver() : job.commit());
  }

  /**
   * A sample of {@code count} schedules of the build's pair on a slow storage, the job commit
   * held while the driver of the failed job runs whole; the job's sources on local disk below
   * {@code dir}.
   */
  static void sample(ScheduleExplorer.Place place, Path dir, boolean creates, int count)
      throws Exception {
    JobSchedule job = new JobSchedule(place, dir, creates);
    ScheduleExplorer explorer = new ScheduleExplorer(place).preparing(job::prepare);
    int run = explorer.sample(job.commit(), job.driver(), count);
    System.out.println("job commit x driver of a killed job (" + (creates ? "create" : "append")
        + "), " + place.name() + ": " + run + " schedules");
    explorer.assertNoFailures();
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

  @ParameterizedTest(name = "object store rules: {0}")
  @ValueSource(booleans = {false, true})
  void aCreatingJobsCommitHeldWhileItsDriverCleansUp(boolean objectStoreRules)
      throws Exception {
    sweep(objectStoreRules, true, true);
  }

  @ParameterizedTest(name = "object store rules: {0}")
  @ValueSource(booleans = {false, true})
  void theDriverOfAFailedCreatingJobHeldWhileItsCommitRuns(boolean objectStoreRules)
      throws Exception {
    sweep(objectStoreRules, false, true);
  }

  /**
   * Object store rules: a recovery breaks the lock of a build's driver while its tasks, which
   * confirm no lock, may still write parts in place: the generation it commits again has a part
   * id floor at least the end of the ids the job set aside, so the next writer never picks a
   * name a late task's part will take.
   */
  @Test
  void aRecoveryThatBreaksABuildsLockRaisesTheFloorAboveItsTasksIds() throws Exception {
    ScheduleExplorer.Place place = ScheduleExplorer.conditionalLocalDisk(tmp);
    org.apache.hadoop.fs.Path archive = new ScheduleExplorer(place).base("fenced-build");
    JobSchedule build = new JobSchedule(place, tmp);
    build.prepare(archive);
    org.hpf.internal.write.ArchiveWriter.open(place.conf(), place.storage(archive),
        ScheduleExplorer.options(true)).close();
    try (org.hpf.internal.read.HpfReader reader = org.hpf.internal.read.HpfReader.open(
        place.storage(archive), org.hpf.internal.read.ReaderOptions.defaults())) {
      org.assertj.core.api.Assertions.assertThat(reader.manifest().partIdFloor())
          .isGreaterThanOrEqualTo(build.partIdLimit());
    }
  }
}
