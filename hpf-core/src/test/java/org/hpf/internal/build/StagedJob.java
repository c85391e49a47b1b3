package org.hpf.internal.build;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.write.StagedChange;
import org.hpf.internal.write.StagedMerge;
import org.hpf.internal.write.WriterOptions;
import org.hpf.mapreduce.ArchiveJobException;

/**
 * An append or a create by the MapReduce build brought, without a job runner, to the moment its job commit
 * starts: the driver's change is open (the lock taken, the sources listed into splits), each
 * split merged by one task attempt as {@link MergeMapper} merges it, and each attempt's work
 * committed as its task. What is left are the build's two actors, each through a storage the
 * caller gives: the job commit ({@link #commit}, the ApplicationMaster's) and the driver's part
 * once it has found the job failed ({@link #driverAfterFailure}).
 */
public final class StagedJob {
  private final Configuration job;
  private final StagedChange change;
  private final Path archive;

  private StagedJob(Configuration job, StagedChange change, Path archive) {
    this.job = job;
    this.change = change;
    this.archive = archive;
  }

  /**
   * Stages an append of the files below {@code roots} to {@code archive} (qualified), the
   * driver's change through {@code driverStorage}, in splits of {@code splitFiles} files.
   */
  public static StagedJob append(Configuration conf, Path archive, ArchiveStorage driverStorage,
      List<Path> roots, WriterOptions options, long splitFiles) throws IOException {
    return stage(conf, archive, StagedChange.append(conf, archive, driverStorage, options),
        roots, options, splitFiles);
  }

  /** As {@link #append}, for a build that creates {@code archive}. */
  public static StagedJob create(Configuration conf, Path archive, ArchiveStorage driverStorage,
      List<Path> roots, WriterOptions options, long splitFiles) throws IOException {
    return stage(conf, archive, StagedChange.create(conf, archive, driverStorage, options),
        roots, options, splitFiles);
  }

  private static StagedJob stage(Configuration conf, Path archive, StagedChange change,
      List<Path> roots, WriterOptions options, long splitFiles) throws IOException {
    Configuration job = new Configuration(conf);
    job.setLong(JobSettings.SPLIT_FILES, splitFiles);
    job.setInt(JobSettings.ATTEMPT_SLOTS, 1);
    try {
      JobDriver.Listing listing = JobDriver.list(job, change, roots);
      JobDriver.configureTasks(job, listing, archive, change.stagingDirectory(), options,
          change.partsInPlace());
      StagedCommitter committer = new StagedCommitter();
      JobID id = new JobID("schedule", 1);
      committer.setupJob(new JobContextImpl(job, id));
      for (SourceSplit split : listing.splits()) {
        TaskAttemptID attempt = new TaskAttemptID("schedule", 1, TaskType.MAP, split.index(), 0);
        merge(job, attempt, split);
        committer.commitTask(new TaskAttemptContextImpl(job, attempt));
      }
    } catch (IOException | RuntimeException e) {
      change.close();
      throw e;
    }
    return new StagedJob(job, change, archive);
  }

  /** Merges {@code split} as its map task's attempt does, sealing the attempt's work. */
  private static void merge(Configuration job, TaskAttemptID attempt, SourceSplit split)
      throws IOException {
    AttemptOutput output = AttemptOutput.open(job, attempt, split);
    try (StagedMerge merge = output.merge();
        RecordReader<ListedSource, ?> reader = new SourceInputFormat().createRecordReader(split,
            null)) {
      reader.initialize(split, new TaskAttemptContextImpl(job, attempt));
      while (reader.nextKeyValue()) {
        ListedSource source = reader.getCurrentKey();
        merge.add(source.toSource(job), source.access());
      }
      output.seal(merge.finish());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted");
    }
  }

  /** The first part id none of the job's tasks may use, from its plan. */
  public int partIdLimit() throws IOException {
    return org.hpf.internal.write.StagedPlan.load(job).partIdLimit();
  }

  /** The job commit, as the ApplicationMaster runs it, through {@code storage}. */
  public Manifest commit(ArchiveStorage storage) throws IOException {
    return StagedCommitter.commit(job, storage);
  }

  /**
   * What the driver does once it killed the job (interrupted, or out of contact): reads
   * the archive back, and reports the generation the commit published, or the failure, having
   * cleaned up; as {@link JobDriver#run} does.
   */
  public Manifest driverAfterFailure() throws IOException {
    List<String> warnings = new ArrayList<>();
    Manifest manifest;
    try {
      manifest = JobDriver.published(change, archive, new ArchiveJobException("job "
          + archive.getName() + " failed (killed)"), warnings);
    } catch (IOException | RuntimeException e) {
      JobDriver.cleanUpAfterFailure(job, change, e, true);
      throw e;
    }
    change.close();
    return manifest;
  }

  /** Leaves the change as a driver that died would (a schedule that never ran the driver). */
  public void abandon() {
    change.abandon();
  }
}
