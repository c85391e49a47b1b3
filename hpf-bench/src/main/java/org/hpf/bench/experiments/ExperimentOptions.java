package org.hpf.bench.experiments;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hpf.bench.ClusterOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The settings every experiment shares (with {@link ClusterOptions}); picocli fills them, tests
 * set them directly.
 */
public final class ExperimentOptions {
  @Mixin
  public ClusterOptions cluster = new ClusterOptions(new File("results/experiments"));

  @Option(names = "--base-dir", paramLabel = "PATH", defaultValue = "/hpf-exp",
      description = "Directory on the file system for the experiments' files, deleted"
          + " afterwards (default: ${DEFAULT-VALUE}).")
  public String baseDir = "/hpf-exp";

  @Option(names = "--reps", defaultValue = "3",
      description = "Repetitions of every measurement; the median is reported"
          + " (default: ${DEFAULT-VALUE}).")
  public int reps = 3;

  /** Checks the settings; returns a message for the first bad one, or null. */
  String problem() {
    if (reps < 1) {
      return "--reps must be positive";
    }
    return cluster.problem();
  }

  Map<String, Object> toMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("fileSystem", cluster.fileSystem());
    map.put("reps", reps);
    map.put("seed", cluster.seed);
    return map;
  }
}
