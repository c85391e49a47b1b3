package org.hpf.bench;

import java.io.File;
import org.apache.hadoop.conf.Configuration;

/** MapReduce's local job runner, in the bench's process, for the jobs the suites time. */
public final class LocalRunner {
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
    if (maps > 0) {
      conf.setInt("mapreduce.local.map.tasks.maximum", maps);
    }
    return conf;
  }
}
