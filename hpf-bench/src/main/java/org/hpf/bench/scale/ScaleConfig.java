package org.hpf.bench.scale;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hpf.bench.BlockOptions;
import org.hpf.bench.ClusterOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The settings of a scale run; picocli fills it from the command line, tests set it directly. */
public final class ScaleConfig {
  @Mixin
  public ClusterOptions cluster = new ClusterOptions(new File("results/scale"));

  @Mixin
  public BlockOptions blocks = new BlockOptions();

  @Option(names = "--sizes", split = ",", paramLabel = "N[,N...]", defaultValue = "100000,1000000",
      description = "Archive sizes built on the local file system (default: ${DEFAULT-VALUE};"
          + " add 10000000 for the full run, about 10 GB of scratch space).")
  public List<Integer> sizes = new ArrayList<>(List.of(100_000, 1_000_000));

  @Option(names = "--hdfs-sizes", split = ",", paramLabel = "N[,N...]", defaultValue = "100000",
      description = "Archive sizes built on the cluster (default: ${DEFAULT-VALUE}).")
  public List<Integer> hdfsSizes = new ArrayList<>(List.of(100_000));

  @Option(names = "--compare", split = ",", paramLabel = "N[,N...]",
      description = "Sizes at which HDFS, HAR and MapFile are measured by the access suite"
          + " (default: ${DEFAULT-VALUE}; --no-compare for none).")
  public List<Integer> compare = new ArrayList<>(List.of(100_000));

  @Option(names = "--no-compare", description = "Skip the other systems.")
  void noCompare(boolean none) {
    if (none) {
      compare = new ArrayList<>();
    }
  }

  @Option(names = "--heap", defaultValue = "256m", paramLabel = "SIZE",
      description = "Heap of the JVM that builds and reads each archive (default:"
          + " ${DEFAULT-VALUE}).")
  public String heap = "256m";

  @Option(names = "--threads", defaultValue = "2",
      description = "Threads adding members, each filling its own part (default:"
          + " ${DEFAULT-VALUE}).")
  public int threads = 2;

  @Option(names = "--gets", defaultValue = "10000",
      description = "Timed warm gets per archive (default: ${DEFAULT-VALUE}).")
  public int gets = 10_000;

  @Option(names = "--cold-gets", defaultValue = "200",
      description = "Timed cold gets (new client, new reader) per archive (default:"
          + " ${DEFAULT-VALUE}).")
  public int coldGets = 200;

  @Option(names = "--compare-gets", defaultValue = "100",
      description = "Random gets per repetition in the comparison (default: ${DEFAULT-VALUE}).")
  public int compareGets = 100;

  @Option(names = "--compare-reps", defaultValue = "5",
      description = "Repetitions in the comparison (default: ${DEFAULT-VALUE}).")
  public int compareReps = 5;

  @Option(names = "--verify", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Verify every archive after building it (default: yes; --no-verify to"
          + " skip).")
  public boolean verify = true;

  @Option(names = "--min-size", defaultValue = "100", paramLabel = "BYTES")
  public int minSize = 100;

  @Option(names = "--max-size", defaultValue = "2048", paramLabel = "BYTES")
  public int maxSize = 2048;

  /** Checks the settings; returns a message for the first bad one, or null. */
  public String problem() {
    if (cluster.problem() != null) {
      return cluster.problem();
    }
    List<Integer> all = new ArrayList<>(sizes);
    all.addAll(hdfsSizes);
    all.addAll(compare);
    if (all.stream().anyMatch(n -> n < 1)) {
      return "sizes must be positive";
    }
    if (threads < 1 || gets < 1 || coldGets < 1 || compareGets < 1 || compareReps < 1) {
      return "--threads, --gets, --cold-gets, --compare-gets and --compare-reps must be positive";
    }
    if (minSize < 1 || maxSize < minSize) {
      return "sizes must satisfy 1 <= --min-size <= --max-size";
    }
    if (!heap.matches("[0-9]+[kKmMgG]?")) {
      return "--heap must be a JVM heap size such as 256m";
    }
    return null;
  }

  Map<String, Object> toMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("sizes", sizes);
    map.put("hdfsSizes", hdfsSizes);
    map.put("compare", compare);
    map.put("heap", heap);
    map.put("threads", threads);
    map.put("gets", gets);
    map.put("coldGets", coldGets);
    map.put("compareGets", compareGets);
    map.put("compareReps", compareReps);
    map.put("verify", verify);
    map.put("minSize", minSize);
    map.put("maxSize", maxSize);
    map.put("sizeDistribution", "LOG_UNIFORM");
    map.put("content", "TEXT");
    cluster.describe(map);
    blocks.describe(map);
    return map;
  }
}
