package org.hpf.internal.build;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;

/**
 * Why a job failed, in one line: the first failed task attempt's error (what a user needs: the
 * source that changed, the name that clashes) or the job's own failure (its commit).
 */
final class JobFailure {
  private static final String FAILURES = "failures";
  /** "Error: org.hpf.SourceException: message" or "Job commit failed: ...Exception: message". */
  private static final Pattern ERROR =
      Pattern.compile("^(?:[A-Za-z ]+: )?(?:[\\w$]+\\.)*([\\w$]+(?:Exception|Error)): (.*)$");

  private JobFailure() {}

  /** Keeps a task attempt's error in the staging directory for {@link #describe}. */
  static void record(Configuration conf, TaskAttemptID attempt, Throwable error) {
    record(conf, attempt.toString(), error);
  }

  /** Keeps an error of {@code who} (a task attempt, the job's commit) for {@link #describe}. */
  static void record(Configuration conf, String who, Throwable error) {
    Path file = new Path(new Path(JobSettings.staging(conf), FAILURES), who);
    try (FSDataOutputStream out = JobSettings.fileSystemToWrite(file, conf)
        .create(file, true)) {
      out.write(String.valueOf(error).getBytes(StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      error.addSuppressed(e);
    }
  }

  static String describe(Job job, Path staging) throws IOException, InterruptedException {
    String recorded = firstRecorded(job.getConfiguration(), new Path(staging, FAILURES));
    if (recorded != null) {
      return recorded;
    }
    String failure = job.getStatus().getFailureInfo();
    if (failure != null && failure.contains("commit failed")) {
      return oneLine(failure);
    }
    int from = 0;
    TaskCompletionEvent[] events;
    do {
      events = job.getTaskCompletionEvents(from, 1000);
      for (TaskCompletionEvent event : events) {
        if (event.getStatus() == TaskCompletionEvent.Status.FAILED) {
          String[] diagnostics = job.getTaskDiagnostics(event.getTaskAttemptId());
          if (diagnostics != null && diagnostics.length > 0) {
            return oneLine(diagnostics[0]);
          }
        }
      }
      from += events.length;
    } while (events.length > 0);
    return failure == null || failure.isBlank() ? "no reason given" : oneLine(failure);
  }

  /** The error a task attempt recorded first, or null. */
  private static String firstRecorded(Configuration conf, Path dir) throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    if (!fs.exists(dir)) {
      return null;
    }
    FileStatus[] failures = fs.listStatus(dir);
    if (failures.length == 0) {
      return null;
    }
    Arrays.sort(failures, Comparator.comparingLong(FileStatus::getModificationTime));
    try (FSDataInputStream in = fs.open(failures[0].getPath())) {
      return oneLine(new String(in.readNBytes(4096), StandardCharsets.UTF_8));
    }
  }

  /** The first line of an error report, without its stack trace and exception package. */
  static String oneLine(String report) {
    String first = report.strip().lines().findFirst().orElse("").strip();
    Matcher matcher = ERROR.matcher(first);
    return matcher.matches() ? matcher.group(2) + " (" + matcher.group(1) + ")" : first;
  }
}
