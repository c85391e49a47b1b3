package org.hpf.bench.mapreduce;

import java.io.File;
import org.hpf.bench.BlockOptions;
import org.hpf.bench.ClusterOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options of {@code hpf-bench mapreduce}. */
public final class MapReduceConfig {
  @Mixin
  public ClusterOptions cluster = new ClusterOptions(new File("results/mapreduce"));

  @Mixin
  public BlockOptions blocks = new BlockOptions();

  @Option(names = "--files", defaultValue = "100000", paramLabel = "N",
      description = "Files uploaded, then archived by both jobs (default: ${DEFAULT-VALUE}).")
  public int files = 100_000;

  @Option(names = "--batch", defaultValue = "1000", paramLabel = "N",
      description = "Files per source directory (default: ${DEFAULT-VALUE}).")
  public int batch = 1000;

  @Option(names = "--maps", defaultValue = "2", paramLabel = "N",
      description = "Map tasks the local job runner runs at once, for both jobs (default:"
          + " ${DEFAULT-VALUE}).")
  public int maps = 2;

  @Option(names = "--gets", defaultValue = "2000", paramLabel = "N",
      description = "Warm gets timed per archive (default: ${DEFAULT-VALUE}).")
  public int gets = 2000;

  @Option(names = "--cold-gets", defaultValue = "30", paramLabel = "N",
      description = "Cold gets (new client, archive opened anew) per archive (default:"
          + " ${DEFAULT-VALUE}).")
  public int coldGets = 30;

  @Option(names = "--min-size", defaultValue = "100", paramLabel = "BYTES")
  public int minSize = 100;

  @Option(names = "--max-size", defaultValue = "2048", paramLabel = "BYTES")
  public int maxSize = 2048;

  /** Checks the settings; returns a message for the first bad one, or null. */
  public String problem() {
    if (cluster.problem() != null) {
      return cluster.problem();
    }
    if (files < 1 || batch < 1 || maps < 1 || gets < 1 || coldGets < 1) {
      return "--files, --batch, --maps, --gets and --cold-gets must be positive";
    }
    if (minSize < 1 || maxSize < minSize) {
      return "sizes must satisfy 1 <= --min-size <= --max-size";
    }
    return null;
  }
}
