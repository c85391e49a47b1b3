package org.hpf.internal.build;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.write.StagedChange;
import org.hpf.internal.write.StagedPlan;
import org.hpf.internal.write.WriterOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits the archive job's output the way a file output format does, with the archive's own
 * commit at the end (docs/CLUSTER.md):
 *
 * <ul>
 *   <li>each task attempt writes parts, a journal and, last, a {@link ShareSeal} into a work
 *       directory of its own ({@code <staging>/attempts/<attempt>});
 *   <li>committing a task renames that directory, in one step that never replaces, to
 *       {@code <staging>/tasks/<application attempt>/task-<task>}: the task's commit point. The
 *       first attempt to get there wins; any other attempt of the task (a zombie that commits
 *       after the winner, a speculative twin) fails its commit and leaves the archive alone. On
 *       an object store, which has no rename, attempts write their parts in place and a task's
 *       commit creates that name as a file naming the attempt, where none exists;
 *   <li>committing the job checks the committed tasks against the driver's listing (one per
 *       split), moves their parts into the archive directory (never replacing a file) and
 *       publishes every member as one new generation ({@link StagedChange#commit}), after
 *       checking that each journal holds its split's files and bytes and points only into the
 *       parts its seal names, byte-identical: the job's result is all of the sources or, if
 *       anything does not add up, none. The generation's part id floor is above every id the
 *       listing set aside, so parts of attempts that did not win are garbage to the collector.
 * </ul>
 */
public final class StagedCommitter extends OutputCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(StagedCommitter.class);

  /** The staging directory's directory of the attempts' work directories. */
  static final String ATTEMPTS = "attempts";

  /** Where an attempt writes. */
  static Path workPath(Configuration conf, TaskAttemptID attempt) {
    return new Path(new Path(JobSettings.staging(conf), ATTEMPTS), attempt.toString());
  }

  /**
   * Where this ApplicationMaster's committed tasks are: one directory per application attempt,
   * as a restarted ApplicationMaster runs every task again.
   */
  static Path tasks(Configuration conf) {
    return new Path(new Path(JobSettings.staging(conf), "tasks"),
        String.valueOf(conf.getInt(MRJobConfig.APPLICATION_ATTEMPT_ID, 0)));
  }

  @Override
  public void setupJob(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    mkdirsInStaging(conf, tasks(conf));
  }

  /**
   * Creates {@code dir} below the staging directory with no more access than the staging
   * directory (the archive's) gives its files.
   */
  static void mkdirsInStaging(Configuration conf, Path dir) throws IOException {
    Path staging = JobSettings.staging(conf);
    String relative = staging.toUri().relativize(dir.toUri()).getPath();
    HdfsIntegration.storage(staging.getFileSystem(conf), staging).mkdirs(relative);
  }

  @Override
  public void setupTask(TaskAttemptContext context) {
    // the mapper creates its work directory when it starts merging
  }

  @Override
  public boolean needsTaskCommit(TaskAttemptContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    Path seal = new Path(workPath(conf, context.getTaskAttemptID()), ShareSeal.FILE);
    return seal.getFileSystem(conf).exists(seal);
  }

  @Override
  public void commitTask(TaskAttemptContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    TaskAttemptID attempt = context.getTaskAttemptID();
    Path work = workPath(conf, attempt);
    FileSystem fs = JobSettings.fileSystemToWrite(work, conf);
    if (!fs.exists(new Path(work, ShareSeal.FILE))) {
      throw new IOException(attempt + " has no finished work to commit in " + work);
    }
    Path committed = new Path(tasks(conf), String.format("task-%06d",
        attempt.getTaskID().getId()));
    try {
      if (JobSettings.partsInPlace(conf)) {
        nameWinner(HdfsIntegration.storage(fs, tasks(conf)), committed.getName(), attempt);
      } else {
        renameNoReplace(fs, work, committed);
      }
    } catch (FileAlreadyExistsException e) {
      throw new IOException("task " + attempt.getTaskID() + " was committed by another attempt;"
          + " the work of " + attempt + " is dropped", e);
    }
  }

  /**
   * Renames a directory, failing if {@code to} exists: on HDFS in one step (rename with
   * {@link Options.Rename#NONE}); a POSIX rename onto a directory that is not empty fails.
   */
  private static void renameNoReplace(FileSystem fs, Path from, Path to) throws IOException {
    FileSystem raw = fs instanceof LocalFileSystem local ? local.getRaw() : fs;
    if (raw instanceof RawLocalFileSystem local) {
      try {
        Files.createDirectories(local.pathToFile(to.getParent()).toPath());
        Files.move(local.pathToFile(from).toPath(), local.pathToFile(to).toPath());
      } catch (java.nio.file.FileAlreadyExistsException | DirectoryNotEmptyException e) {
        throw new FileAlreadyExistsException(to + " exists");
      }
      return;
    }
    fs.mkdirs(to.getParent());
    FileContext.getFileContext(fs.getUri(), fs.getConf()).rename(from, to, Options.Rename.NONE);
  }

  /**
   * Commits a task on a store without rename: a file naming the attempt, created where none
   * exists (the store's conditional create), so the first attempt to get there wins. A create
   * that reports a failure may still have published the file (its reply was lost): the file is
   * read back, and one that names this attempt is this attempt's commit.
   */
  static void nameWinner(ArchiveStorage tasks, String task, TaskAttemptID attempt)
      throws IOException {
    try (ArchiveOutput out = tasks.create(task, 0)) {
      out.stream().write(attempt.toString().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      // By name: the id read back is of mapred's subclass, which equals no mapreduce id.
      TaskAttemptID named = namedQuietly(tasks, task, e);
      if (named == null || !named.toString().equals(attempt.toString())) {
        throw e;
      }
      LOG.warn("{}: committing {} reported {}, but the store holds the commit", tasks.location(
          task), attempt, e.toString());
    }
  }

  /** The attempt {@code task} names, or null if it cannot be read (added to {@code cause}). */
  private static TaskAttemptID namedQuietly(ArchiveStorage tasks, String task,
      IOException cause) {
    try {
      return winner(tasks, task);
    } catch (FileNotFoundException e) {
      return null;
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
      return null;
    }
  }

  /** The attempt a task file of a store without rename names (see {@link #nameWinner}). */
  static TaskAttemptID winner(ArchiveStorage storage, String taskFile) throws IOException {
    try (ArchiveInput in = storage.open(taskFile)) {
      if (in.length() > 256) {
        throw new CorruptArchiveException(storage.location(taskFile), 0,
            "too long to name a task attempt");
      }
      String attempt = new String(in.readFully(0, (int) in.length()), StandardCharsets.UTF_8);
      try {
        return TaskAttemptID.forName(attempt);
      } catch (IllegalArgumentException e) {
        throw new CorruptArchiveException(storage.location(taskFile), 0,
            "names no task attempt: " + attempt);
      }
    }
  }

  @Override
  public void abortTask(TaskAttemptContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    Path work = workPath(conf, context.getTaskAttemptID());
    work.getFileSystem(conf).delete(work, true);
  }

  @Override
  public void commitJob(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    commit(conf, StagedChange.storage(conf, JobSettings.archive(conf),
        JobSettings.writerOptions(conf)));
  }

  /** Commits the job described by {@code conf} through {@code storage}, the archive's. */
  public static Manifest commit(Configuration conf, ArchiveStorage storage) throws IOException {
    StagedPlan plan = StagedPlan.load(conf);
    WriterOptions options = JobSettings.writerOptions(conf);
    try {
      // Nothing moves into the archive directory unless the driver still holds its lock.
      StagedChange.checkCurrent(storage, plan);
      return StagedChange.commit(conf, storage, plan, CommittedShares.collect(conf, storage,
          tasks(conf)), options);
    } catch (IOException | RuntimeException e) {
      // Where the driver finds it: the local job runner keeps no job diagnostics.
      JobFailure.record(conf, "job-commit", e);
      throw e;
    }
  }

  /**
   * Deletes nothing: the job's commit may have published before it failed, and the driver,
   * which reads the archive back, cleans up.
   */
  @Override
  public void abortJob(JobContext context, JobStatus.State state) {}

  @Override
  public boolean isRecoverySupported() {
    return false; // a restarted application master runs every task again
  }
}
