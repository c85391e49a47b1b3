package org.hpf.bench.experiments;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.hpf.bench.BenchCluster;
import org.hpf.bench.BenchFiles;
import org.hpf.bench.BenchRun;

/**
 * What the experiments of one command share: the options, the log, the local scratch space and
 * the cluster. An embedded cluster is started on first use and kept while the next experiment
 * wants the same number of DataNodes; a real cluster (--fs) is connected once.
 */
public final class ExperimentContext implements Closeable {
  /** Block size of the embedded cluster's defaults; every experiment sets its own per file. */
  private static final long DEFAULT_BLOCK = 128L << 20;

  final ExperimentOptions options;
  final PrintStream log;
  private final File work;
  private BenchCluster cluster;
  private int clusterDataNodes;
  private int clusterNumber;

  public ExperimentContext(ExperimentOptions options, PrintStream log) throws IOException {
    String problem = options.problem();
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    this.options = options;
    this.log = log;
    this.work = options.cluster.workDir();
    BenchFiles.deleteTree(work.toPath());
    Files.createDirectories(work.toPath());
  }

  boolean embedded() {
    return options.cluster.fs == null;
  }

  /** The cluster with {@code dataNodes} DataNodes (embedded), or the real one. */
  BenchCluster cluster(int dataNodes) throws IOException {
    if (cluster != null && (!embedded() || clusterDataNodes == dataNodes)) {
      return cluster;
    }
    closeCluster();
    if (embedded()) {
      cluster = startEmbedded(dataNodes);
    } else {
      log.println("using " + options.cluster.fs);
      cluster = BenchCluster.remote(options.cluster.fs, new Configuration(), (short) 3,
          DEFAULT_BLOCK);
    }
    clusterDataNodes = dataNodes;
    cluster.fs().delete(cluster.path(options.baseDir), true);
    warmUp(cluster);
    return cluster;
  }

  /** A new embedded cluster the caller closes (the DataNode sweep's one per count). */
  BenchCluster startEmbedded(int dataNodes) throws IOException {
    File storage = new File(work, "dfs-" + clusterNumber++);
    BenchCluster started = BenchCluster.start(options.cluster.mode, storage, dataNodes,
        (short) Math.min(3, dataNodes), DEFAULT_BLOCK, log);
    try {
      warmUp(started);
    } catch (IOException | RuntimeException e) {
      started.close();
      throw e;
    }
    return started;
  }

  /**
   * An untimed upload and download of 16 MiB in 1 MiB files: the first transfers of a JVM pay
   * for class loading and JIT compilation, the first of a cluster for its first pipelines, and
   * neither belongs to the first measured point.
   */
  private void warmUp(BenchCluster on) throws IOException {
    Path dir = dir(on, "warm-up");
    List<java.nio.file.Path> files = new LocalData(options.cluster.seed).files(local("warm-up"),
        16 << 20, 1 << 20);
    short replication = (short) Math.max(1, Math.min(3, on.liveDataNodes()));
    Transfers.upload(on.fs(), files, dir, replication, 1 << 20);
    Transfers.download(on.fs(), dir);
    on.fs().delete(dir, true);
  }

  /** A directory on the cluster for one experiment's files. */
  Path dir(BenchCluster on, String name) {
    return on.path(options.baseDir + "/" + name);
  }

  /** A local scratch directory. */
  java.nio.file.Path local(String name) throws IOException {
    return Files.createDirectories(work.toPath().resolve(name));
  }

  /** The options, machine and load of a result; the cluster's URI once it is known. */
  void describe(ExperimentResult r, BenchCluster on) throws IOException {
    r.config.putAll(options.toMap());
    BenchRun.environment(r.environment);
    r.environment.remove("harTool");
    if (on != null) {
      r.environment.put("fileSystemUri", on.uri().toString());
      r.environment.put("dataNodes", on.liveDataNodes());
    }
    if (embedded()) {
      boolean child = options.cluster.mode == BenchCluster.Mode.EXTERNAL;
      r.notes.add("Embedded MiniDFSCluster: the NameNode, every DataNode and the client share"
          + (child ? " one host (the daemons in a JVM of their own)" : " one JVM")
          + ", one host's disk and its " + Runtime.getRuntime().availableProcessors()
          + " cores, and talk over the loopback interface; no network speed or client location"
          + " is measured, and data written is read back from the page cache. Ratios compare"
          + " with the studies, absolute times do not.");
    }
  }

  /** Called when an experiment ends: the load average then goes into its result. */
  void finish(ExperimentResult r) {
    r.environment.put("loadAverageAtEnd",
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  private void closeCluster() throws IOException {
    if (cluster != null) {
      try {
        cluster.fs().delete(cluster.path(options.baseDir), true);
      } finally {
        cluster.close();
        cluster = null;
      }
    }
  }

  @Override
  public void close() throws IOException {
    try {
      closeCluster();
    } finally {
      if (!options.cluster.keepWork) {
        BenchFiles.deleteTree(work.toPath());
      }
    }
  }
}
