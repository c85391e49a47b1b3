package org.hpf.bench;

import java.io.File;
import java.net.URI;
import picocli.CommandLine.Option;

/**
 * The options every hpf-bench command that generates files and runs a cluster shares: where
 * results and scratch go, which cluster, the seed. Each command's {@code --out} default is its
 * own.
 */
public abstract class RunOptions {
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

  @Option(names = "--datanodes", description = "DataNodes of the embedded cluster"
      + " (default: ${DEFAULT-VALUE}).")
  public int dataNodes = 3;

  @Option(names = "--seed", description = "Seed of the generated files' sizes and content, and"
      + " of sampling (default: ${DEFAULT-VALUE}).")
  public long seed = 20260101;

  protected RunOptions(File out) {
    this.out = out;
  }

  /** The scratch space: {@code --work}, or {@code <out>/work}. */
  public File workDir() {
    return (work != null ? work : new File(out, "work")).getAbsoluteFile();
  }
}
