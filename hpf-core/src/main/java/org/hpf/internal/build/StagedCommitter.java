package org.hpf.internal.build;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.hpf.internal.write.StagedChange;
import org.hpf.internal.write.StagedMerge;
import org.hpf.internal.write.StagedPlan;

/**
 * Commits the archive job's output the way a file output format does, with the archive's own
 * commit at the end:
 *
 * <ul>
 *   <li>each task attempt writes parts and a journal into a work directory of its own
 *       ({@code <staging>/attempts/<attempt>});
 *   <li>committing a task moves its parts into the archive directory (no generation names them
 *       yet, so readers never see them), then its journal to {@code <staging>/tasks/}: the
 *       journal's rename is the task's commit point. The framework commits one attempt per task,
 *       and a task's part ids are its own, so a failed, killed or speculative attempt can
 *       neither duplicate nor lose a member;
 *   <li>committing the job builds the index of every committed task's members and publishes
 *       them as one new generation ({@link StagedChange#commit}): the job's result is all of the
 *       sources or, if anything failed, none.
 * </ul>
 */
public final class StagedCommitter extends OutputCommitter {
  private static final String JOURNAL_PREFIX = "journal-";

  /** Where an attempt writes. */
  static Path workPath(Configuration conf, TaskAttemptID attempt) {
    return new Path(new Path(JobSettings.staging(conf), "attempts"), attempt.toString());
  }

  private static Path tasks(Configuration conf) {
    return new Path(JobSettings.staging(conf), "tasks");
  }

  @Override
  public void setupJob(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    tasks(conf).getFileSystem(conf).mkdirs(tasks(conf));
  }

  @Override
  public void setupTask(TaskAttemptContext context) {
    // the mapper creates its work directory when it starts merging
  }

  @Override
  public boolean needsTaskCommit(TaskAttemptContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    Path journal = new Path(workPath(conf, context.getTaskAttemptID()), StagedMerge.JOURNAL);
    return journal.getFileSystem(conf).exists(journal);
  }

  @Override
  public void commitTask(TaskAttemptContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    Path work = workPath(conf, context.getTaskAttemptID());
    FileSystem fs = work.getFileSystem(conf);
    Path archive = JobSettings.archive(conf);
    for (FileStatus file : fs.listStatus(work)) {
      String name = file.getPath().getName();
      if (name.startsWith("part-")) {
        // A part of this task's range left by an attempt whose commit died halfway: replace it.
        move(fs, file.getPath(), new Path(archive, name));
      }
    }
    move(fs, new Path(work, StagedMerge.JOURNAL), new Path(tasks(conf),
        String.format("%s%06d", JOURNAL_PREFIX, context.getTaskAttemptID().getTaskID().getId())));
    fs.delete(work, true);
  }

  private static void move(FileSystem fs, Path from, Path to) throws IOException {
    fs.delete(to, false);
    if (!fs.rename(from, to)) {
      throw new IOException("could not move " + from + " to " + to);
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
    FileSystem fs = tasks(conf).getFileSystem(conf);
    FileStatus[] committed = fs.listStatus(tasks(conf),
        path -> path.getName().startsWith(JOURNAL_PREFIX));
    Arrays.sort(committed);
    List<Path> journals = new ArrayList<>();
    for (FileStatus journal : committed) {
      journals.add(journal.getPath());
    }
    StagedChange.commit(conf, JobSettings.archive(conf), StagedPlan.load(conf), journals,
        JobSettings.writerOptions(conf));
  }

  @Override
  public boolean isRecoverySupported() {
    return false; // a restarted application master runs every task again
  }
}
