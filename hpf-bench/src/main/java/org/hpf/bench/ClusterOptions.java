package org.hpf.bench;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The options every hpf-bench command that generates files and runs a cluster shares, mixed into
 * each command ({@code @Mixin}): where results and scratch go, which cluster, the seed. Each
 * command gives its own {@code --out} default.
 */
public final class ClusterOptions {
  @Option(names = {"-o", "--out"}, paramLabel = "DIR",
      description = "Where the results, reports and charts go (default: ${DEFAULT-VALUE}).")
  public File out;

  @Option(names = "--work", paramLabel = "DIR", description = "Scratch space: local source"
      + " files, the embedded cluster's storage, job runner files (default: <out>/work,"
      + " deleted afterwards).")
  public File work;

  @Option(names = "--keep-work", description = "Keep the scratch space after the run.")
  public boolean keepWork;

  @Option(names = "--fs", paramLabel = "URI", description = "Run against this cluster (e.g."
      + " hdfs://namenode:8020) instead of an embedded MiniDFSCluster.")
  public URI fs;

  @Option(names = "--cluster", paramLabel = "MODE", defaultValue = "embedded",
      converter = ModeConverter.class, description = "Where the HDFS daemons of a cluster the"
      + " run starts itself live: embedded (in the benchmark's JVM) or external (a child JVM, as"
      + " on a real cluster); not with --fs (default: ${DEFAULT-VALUE}).")
  public BenchCluster.Mode mode = BenchCluster.Mode.EMBEDDED;

  @Option(names = "--datanodes", description = "DataNodes of the embedded cluster"
      + " (default: ${DEFAULT-VALUE}).")
  public int dataNodes = 3;

  @Option(names = "--seed", description = "Seed of the generated files' sizes and content, and"
      + " of sampling (default: ${DEFAULT-VALUE}).")
  public long seed = 20260101;

  /** The options with {@code out} as the default of {@code --out}. */
  public ClusterOptions(File out) {
    this.out = out;
  }

  /** The same cluster and seed, writing to {@code out} with scratch space {@code work}. */
  public ClusterOptions under(File out, File work) {
    ClusterOptions copy = new ClusterOptions(out);
    copy.work = work;
    copy.keepWork = keepWork;
    copy.fs = fs;
    copy.mode = mode;
    copy.dataNodes = dataNodes;
    copy.seed = seed;
    return copy;
  }

  /** Checks the cluster options; returns a message for the first bad one, or null. */
  public String problem() {
    if (dataNodes < 1) {
      return "--datanodes must be positive";
    }
    if (fs != null && mode == BenchCluster.Mode.EXTERNAL) {
      return "--cluster external starts a cluster; --fs names one that runs: give one of them";
    }
    return null;
  }

  /** The scratch space: {@code --work}, or {@code <out>/work}. */
  public File workDir() {
    return (work != null ? work : new File(out, "work")).getAbsoluteFile();
  }

  /** Connects to {@code --fs}, or starts an embedded cluster storing under {@code work}. */
  public BenchCluster connectOrStart(File work, BlockOptions blocks, PrintStream log)
      throws IOException {
    return BenchCluster.connectOrStart(fs, mode, work, dataNodes, blocks.replication,
        blocks.blockSize, log);
  }

  /** The file system the command runs on, as results record it. */
  public String fileSystem() {
    if (fs != null) {
      return fs.toString();
    }
    return mode == BenchCluster.Mode.EXTERNAL ? "MiniDFSCluster in a child JVM"
        : "embedded MiniDFSCluster";
  }

  /** Reads {@code --cluster} in any case. */
  static final class ModeConverter
      implements picocli.CommandLine.ITypeConverter<BenchCluster.Mode> {
    @Override
    public BenchCluster.Mode convert(String value) {
      return BenchCluster.Mode.valueOf(value.toUpperCase(java.util.Locale.ROOT));
    }
  }

  /** Adds the cluster and the seed to the settings a result records. */
  public void describe(Map<String, Object> settings) {
    settings.put("fileSystem", fileSystem());
    settings.put("dataNodes", fs == null ? dataNodes : null);
    settings.put("seed", seed);
  }
}
