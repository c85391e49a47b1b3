package org.hpf.bench;

import java.io.File;
import org.apache.hadoop.conf.Configuration;

/** MapReduce's local job runner, in the bench's process, for the jobs the suites time. */
public final class LocalRunner {
  /** How often a client asks whether its job has ended. */
  static final int POLL_MILLIS = 10;

  private LocalRunner() {}

  /**
   * {@code base} with jobs run by the local job runner, their staging and scratch files below
   * {@code work}, and at most {@code maps} map tasks at once (0: the runner's default).
   */
  public static Configuration configure(Configuration base, File work, int maps) {
    Configuration conf = new Configuration(base);
    conf.set("mapreduce.framework.name", "local");
    conf.set("mapreduce.jobtracker.staging.root.dir",
        new File(work, "staging").getAbsolutePath());
    conf.set("mapreduce.cluster.local.dir", new File(work, "mapred-local").getAbsolutePath());
    // A client learns that a job ended by polling, every 5 s (waitForCompletion) or 1 s
    // (JobClient.runJob, as HadoopArchives does) by default: a timed job would be rounded up
    // to that. The local job runner answers in-process, so polling often costs nothing.
    conf.setInt("mapreduce.client.completion.pollinterval", POLL_MILLIS);
    conf.setInt("mapreduce.client.progressmonitor.pollinterval", POLL_MILLIS);
    if (maps > 0) {
      conf.setInt("mapreduce.local.map.tasks.maximum", maps);
    }
    return conf;
  }
}
