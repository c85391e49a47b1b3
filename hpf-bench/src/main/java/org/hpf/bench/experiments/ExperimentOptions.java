package org.hpf.bench.experiments;

import java.io.File;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The settings every experiment shares; picocli fills them, tests set them directly. */
public final class ExperimentOptions {
  @Option(names = {"-o", "--out"}, paramLabel = "DIR", defaultValue = "results/experiments",
      description = "Where <suite>.json, <suite>.md and <suite>.png go"
          + " (default: ${DEFAULT-VALUE}).")
  public File out = new File("results/experiments");

  @Option(names = "--work", paramLabel = "DIR", description = "Scratch space: local source"
      + " files and the embedded cluster's storage (default: <out>/work, deleted afterwards).")
  public File work;

  @Option(names = "--keep-work", description = "Keep the scratch space after the run.")
  public boolean keepWork;

  @Option(names = "--fs", paramLabel = "URI", description = "Run against this cluster (e.g."
      + " hdfs://namenode:8020) instead of an embedded MiniDFSCluster.")
  public URI fs;

  @Option(names = "--base-dir", paramLabel = "PATH", defaultValue = "/hpf-exp",
      description = "Directory on the file system for the experiments' files, deleted"
          + " afterwards (default: ${DEFAULT-VALUE}).")
  public String baseDir = "/hpf-exp";

  @Option(names = "--datanodes", defaultValue = "3", description = "DataNodes of the embedded"
      + " cluster; the replication suite uses at least its largest factor, the DataNode sweep"
      + " its own (default: ${DEFAULT-VALUE}).")
  public int dataNodes = 3;

  @Option(names = "--reps", defaultValue = "3",
      description = "Repetitions of every measurement; the median is reported"
          + " (default: ${DEFAULT-VALUE}).")
  public int reps = 3;

  @Option(names = "--seed", defaultValue = "20260101",
      description = "Seed of the source files' random content (default: ${DEFAULT-VALUE}).")
  public long seed = 20260101;

  public File workDir() {
    return (work != null ? work : new File(out, "work")).getAbsoluteFile();
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
