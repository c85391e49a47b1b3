package org.hpf.bench.experiments;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hpf.bench.RunOptions;
import picocli.CommandLine.Option;

/**
 * The settings every experiment shares ({@link RunOptions}); picocli fills them, tests set them
 * directly.
 */
public final class ExperimentOptions extends RunOptions {
  @Option(names = "--base-dir", paramLabel = "PATH", defaultValue = "/hpf-exp",
      description = "Directory on the file system for the experiments' files, deleted"
          + " afterwards (default: ${DEFAULT-VALUE}).")
  public String baseDir = "/hpf-exp";

  @Option(names = "--reps", defaultValue = "3",
      description = "Repetitions of every measurement; the median is reported"
          + " (default: ${DEFAULT-VALUE}).")
  public int reps = 3;

  public ExperimentOptions() {
    super(new File("results/experiments"));
  }

  /** Checks the settings; returns a message for the first bad one, or null. */
  String problem() {
    if (reps < 1 || dataNodes < 1) {
      return "--reps and --datanodes must be positive";
    }
    return null;
  }

  Map<String, Object> toMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("fileSystem", fs == null ? "embedded MiniDFSCluster" : fs.toString());
    map.put("reps", reps);
    map.put("seed", seed);
    return map;
  }
}
