package org.hpf.crash;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.hpf.crash.ScheduleExplorer.Actor;
import org.hpf.crash.ScheduleExplorer.Place;
import org.hpf.internal.build.StagedJob;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.mapreduce.ArchiveJobException;

/**
 * The MapReduce build as two actors of a schedule: the job commit (in the ApplicationMaster)
 * and the driver once the job reported a failure ({@code killJob()} returned, or contact was
 * lost and the job killed), which reads the archive back, cleans up and reports. Each schedule
 * starts from the base archive with an append of {@link #FILES} staged on it in two shares
 * ({@link StagedJob}), every task committed. The driver reports the job's change; the commit
 * reports only to the driver, which its failure fails. A create's schedules start from an
 * empty path instead, the build staged there.
 */
final class JobSchedule {
  /** The files the job appends, below its source root, by member name. */
  static final Map<String, byte[]> FILES = ScheduleExplorer.members("job/n", 6, 39);

  private final Place place;
  /** True for a build that creates the archive, false for one that appends to the base. */
  private final boolean creates;
  private final org.apache.hadoop.fs.Path sources;
  private StagedJob job;
  /** The driver's storage: the storage of the actor that runs the driver, once it runs. */
  private volatile ArchiveStorage driverStorage;

  JobSchedule(Place place, java.nio.file.Path dir) throws IOException {
    this(place, dir, false);
  }

  /** A build that creates the archive where {@code creates}, else one that appends. */
  JobSchedule(Place place, java.nio.file.Path dir, boolean creates) throws IOException {
    this.place = place;
    this.creates = creates;
    java.nio.file.Path root = dir.resolve("job-sources");
    for (Map.Entry<String, byte[]> file : FILES.entrySet()) {
      java.nio.file.Path path = root.resolve(file.getKey());
      Files.createDirectories(path.getParent());
      Files.write(path, file.getValue());
    }
    sources = ArchiveFixtures.hadoopPath(root);
  }

  /** Stages the job on a schedule's archive, the driver's change through a relay. */
  void prepare(Path archive) throws IOException {
    driverStorage = place.storage(archive);
    job = creates
        ? StagedJob.create(place.conf(), archive, relay(), List.of(sources),
            ScheduleExplorer.options(false), FILES.size() / 2)
        : StagedJob.append(place.conf(), archive, relay(), List.of(sources),
            ScheduleExplorer.options(false), FILES.size() / 2);
  }

  /** The first part id none of the staged job's tasks may use. */
  int partIdLimit() throws IOException {
    return job.partIdLimit();
  }

  /** The job commit: any failure of it fails the job (it commits nothing, by its checks). */
  Actor commit() {
    return new Actor("job commit", Map.of(), Set.of(), (conf, storage) -> {
      try {
        job.commit(storage);
      } catch (IOException | RuntimeException e) {
        throw new ArchiveJobException("the job commit failed: " + e);
      }
    }, !creates);
  }

  /** The driver of a job that reported a failure: what it reports is the job's outcome. */
  Actor driver() {
    return new Actor("driver of a killed job", FILES, Set.of(), (conf, storage) -> {
      driverStorage = storage;
      job.driverAfterFailure();
    }, !creates);
  }

  /**
   * A storage whose calls go to {@link #driverStorage} at the moment they are made: the
   * driver's change is opened before the schedule gives the driver its own storage.
   */
  private ArchiveStorage relay() {
    return (ArchiveStorage) Proxy.newProxyInstance(ArchiveStorage.class.getClassLoader(),
        new Class<?>[] {ArchiveStorage.class}, (proxy, method, args) -> {
          try {
            return method.invoke(driverStorage, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }
}
