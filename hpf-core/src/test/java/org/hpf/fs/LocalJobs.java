package org.hpf.fs;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;

/** Configurations for MapReduce jobs on the local job runner, with every file under target/. */
public final class LocalJobs {
  private LocalJobs() {}

  public static Configuration configure(Configuration conf) {
    File dir = new File(System.getProperty("test.build.data", "target/test-data"),
        "mapreduce-" + UUID.randomUUID()).getAbsoluteFile();
    conf.set("mapreduce.framework.name", "local");
    conf.set("mapreduce.jobtracker.staging.root.dir", new File(dir, "staging").getPath());
    conf.set("yarn.app.mapreduce.am.staging-dir", new File(dir, "staging").getPath());
    conf.set("hadoop.tmp.dir", new File(dir, "tmp").getPath());
    conf.set("mapreduce.cluster.local.dir", new File(dir, "local").getPath());
    conf.setInt("mapreduce.local.map.tasks.maximum", 2);
    // waitForCompletion polls every 5 s by default: most of a small test job's time.
    conf.setInt("mapreduce.client.completion.pollinterval", 20);
    conf.setInt("mapreduce.client.progressmonitor.pollinterval", 20);
    return conf;
  }

  /** The lines of every part-* file of a job's output directory, in file order. */
  public static List<String> outputLines(java.nio.file.Path output) throws IOException {
    List<String> lines = new ArrayList<>();
    try (var files = Files.list(output)) {
      for (java.nio.file.Path file : files.filter(f -> f.getFileName().toString()
          .startsWith("part-")).sorted().toList()) {
        lines.addAll(Files.readAllLines(file, StandardCharsets.UTF_8));
      }
    }
    return lines;
  }
}
