package org.hpf.bench;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.util.VersionInfo;
import org.hpf.bench.DatasetGenerator.Dataset;
import org.hpf.bench.systems.BenchSystem;
import org.hpf.bench.systems.HarArchive;
import org.hpf.bench.systems.HdfsFiles;
import org.hpf.bench.systems.HpfArchive;
import org.hpf.bench.systems.SequenceFiles;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.write.WriterOptions;

/**
 * One benchmark run: generate the dataset, start (or connect to) the cluster, create every
 * system's store for every dataset size (suite 1), then run the access (2), NameNode (3), size
 * (4) and throughput suites on the largest, and write results.json, report.md and the charts.
 */
public final class BenchRun {
  private final BenchConfig config;
  private final PrintStream log;

  public BenchRun(BenchConfig config, PrintStream log) {
    this.config = config;
    this.log = log;
  }

  public Results run() throws Exception {
    return run(null);
  }

  /**
   * The run on {@code shared}, a cluster the caller started and closes, or on the cluster of
   * the configuration when it is null.
   */
  public Results run(BenchCluster shared) throws Exception {
    String problem = config.problem();
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    File out = config.cluster.out.getAbsoluteFile();
    File work = config.cluster.workDir().getAbsoluteFile();
    Files.createDirectories(out.toPath());
    deleteTree(work.toPath());
    Files.createDirectories(work.toPath());
    Results results = new Results();
    results.config.putAll(config.toMap());
    environment(results.environment);
    int n = config.maxFiles();
    long runStart = System.nanoTime();
    LoadSampler load = new LoadSampler(60);
    try {
      long start = System.nanoTime();
      int batch = batchSize(config.files);
      log.printf(Locale.ROOT, "generating %,d files (seed %d) in %s%n", n, config.cluster.seed,
          work);
      Dataset data = new DatasetGenerator(config.cluster.seed, config.minSize, config.maxSize,
          config.sizeDistribution, config.paretoAlpha, config.content)
          .writeBatches(work.toPath().resolve("dataset"), n, batch);
      dataset(results, data, (System.nanoTime() - start) / 1_000_000);
      try (BenchCluster started = shared != null ? null
          : config.cluster.connectOrStart(work, config.blocks, log)) {
        BenchCluster cluster = shared != null ? shared : started;
        results.environment.put("fileSystemUri", cluster.uri().toString());
        Stores stores = new Stores(systems(cluster, work), cluster.path(config.baseDir));
        cluster.fs().delete(cluster.path(config.baseDir), true);
        log.println("suite 1: creation");
        List<Integer> sizes = config.runs("creation") ? config.files : List.of(n);
        File json = new File(out, "results.json");
        new CreationSuite(cluster, stores, config.putThreads, log).run(data, sizes, n, results);
        results.write(json);
        if (!config.runs("creation")) {
          results.notes.add("creation suite not requested: stores were created at " + n
              + " files only, their times are still recorded");
        }
        if (config.runs("access")) {
          log.println("suite 2: random gets");
          AccessSuite access = new AccessSuite(cluster, stores, config, log);
          double client = access.newClientMillis(20);
          results.environment.put("newClientMillisMedian", client);
          results.notes.add(String.format(Locale.ROOT, "A cold get includes creating a new"
              + " client (FileSystem + DFSClient): %.2f ms median on its own here, the same for"
              + " every system.", client));
          access.run(data, n, results);
          results.write(json);
          if (stores.get("SequenceFile") != null) {
            results.notes.add("SequenceFile has no index: each get scans from the first record;"
                + " only " + config.seqfileGets + " gets per mode were timed for it.");
          }
        }
        if (config.runs("namenode") || config.runs("size")) {
          log.println("suites 3 and 4: NameNode objects and size");
          new NameNodeSuite(cluster, stores, config.nnObjectBytes, log)
              .run(n, data.bytesOfFirst(n), results);
          results.write(json);
          if (stores.get("HAR") != null) {
            results.notes.add("HAR's count is its archive alone; to create it, its sources"
                + " were first uploaded as plain files (the HDFS row) and stay there until"
                + " deleted.");
          }
        }
        if (config.runs("throughput")) {
          log.println("suite 5: metadata throughput");
          new ThroughputSuite(cluster, stores, config, log).run(data.first(n), n, results);
        }
        cluster.fs().delete(cluster.path(config.baseDir), true);
      }
    } finally {
      load.close();
      results.environment.put("loadAverageAtEnd", java.lang.management.ManagementFactory
          .getOperatingSystemMXBean().getSystemLoadAverage());
      double[] loads = load.summary();
      if (loads != null) {
        results.environment.put("loadAverageLowMedianHigh", String.format(Locale.ROOT,
            "%.1f / %.1f / %.1f", loads[0], loads[1], loads[2]));
        results.environment.put("loadAverageEveryMinute", load.samples().stream()
            .map(sample -> Math.round(sample[1] * 10) / 10.0).toList());
      }
      results.environment.put("runSeconds", (System.nanoTime() - runStart) / 1_000_000_000L);
      results.write(new File(out, "results.json"));
      render(results, out);
      if (!config.cluster.keepWork) {
        deleteTree(work.toPath());
      }
    }
    log.println("results in " + out);
    return results;
  }

  /** Writes report.md and the charts of {@code results} to {@code out}. */
  public static void render(Results results, File out) throws IOException {
    render(results, null, out);
  }

  /**
   * Writes report.md and the charts of {@code results} to {@code out}; the headline has the
   * scan rows of {@code scan} when it is not null.
   */
  public static void render(Results results, org.hpf.bench.experiments.ExperimentResult scan,
      File out) throws IOException {
    Files.createDirectories(out.toPath());
    Files.writeString(new File(out, "report.md").toPath(), Report.markdown(results, scan),
        StandardCharsets.UTF_8);
    Charts.write(results, out);
  }

  @SuppressWarnings("unchecked")
  private List<BenchSystem> systems(BenchCluster cluster, File work) throws IOException {
    Class<? extends CompressionCodec> codec;
    try {
      codec = (Class<? extends CompressionCodec>) Class.forName(config.seqCodec);
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("no codec class " + config.seqCodec);
    }
    List<BenchSystem> systems = new ArrayList<>();
    HdfsFiles hdfs = new HdfsFiles(cluster.fs(), config.blocks.replication,
        config.blocks.blockSize);
    if (config.has("HDFS")) {
      systems.add(hdfs);
    }
    if (config.has("HAR")) {
      systems.add(new HarArchive(cluster.conf(), hdfs, config.blocks.replication,
          new File(work, "mapred")));
    }
    if (config.has("HPF")) {
      WriterOptions.Builder options = WriterOptions.builder()
          .settings(s -> s.compression(config.hpfCompression))
          .layout(l -> l.withBlockSize(config.blocks.blockSize)
          .withReplication(config.blocks.replication).withBucketCapacity(config.hpfBucketCapacity));
      if (config.hpfThreads > 0) {
        options.settings(s -> s.threads(config.hpfThreads));
      }
      systems.add(new HpfArchive(cluster.conf(), options.build()));
    }
    if (config.has("MapFile")) {
      systems.add(SequenceFiles.mapFile(cluster.conf(), config.seqCompression, codec,
          config.blocks.replication, config.blocks.blockSize));
    }
    if (config.has("SequenceFile")) {
      systems.add(SequenceFiles.sequenceFile(cluster.conf(), config.seqCompression, codec,
          config.blocks.replication, config.blocks.blockSize));
    }
    return systems;
  }

  /** The largest batch size that divides every dataset size (so each is whole batches). */
  static int batchSize(List<Integer> sizes) {
    int g = 0;
    for (int n : sizes) {
      g = gcd(g, n);
    }
    // Many small batches cost nothing but a source root each; cap at 10,000 files.
    int batch = g;
    for (int d = 1; d <= g; d++) {
      if (g % d == 0 && g / d <= 10_000) {
        batch = g / d;
        break;
      }
    }
    return batch;
  }

  private static int gcd(int a, int b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  /** The machine, JVM and versions a run measured on, and the load average at its start. */
  public static void environment(java.util.Map<String, Object> env) {
    Runtime rt = Runtime.getRuntime();
    env.put("date", Instant.now().toString());
    env.put("jvm", System.getProperty("java.vm.name") + " "
        + System.getProperty("java.runtime.version"));
    env.put("cores", rt.availableProcessors());
    env.put("maxHeapMiB", rt.maxMemory() >> 20);
    env.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version")
        + " " + System.getProperty("os.arch"));
    env.put("hadoop", VersionInfo.getVersion());
    // The HAR tool's version, from its jar's name (its manifest has none).
    try {
      env.put("harTool", new File(org.apache.hadoop.tools.HadoopArchives.class
          .getProtectionDomain().getCodeSource().getLocation().toURI()).getName());
    } catch (java.net.URISyntaxException | RuntimeException e) {
      env.put("harTool", "unknown");
    }
    env.put("hpfFormatVersion", FileHeader.FORMAT_VERSION);
    try {
      env.put("loadAverage", java.lang.management.ManagementFactory
          .getOperatingSystemMXBean().getSystemLoadAverage());
    } catch (RuntimeException e) {
      // not available on every platform
    }
  }

  private static void dataset(Results r, Dataset data, long millis) {
    int[] sizes = data.members().stream().mapToInt(DatasetGenerator.Member::size).sorted()
        .toArray();
    r.dataset.put("files", sizes.length);
    r.dataset.put("bytes", data.totalBytes());
    r.dataset.put("meanBytes", sizes.length == 0 ? 0 : data.totalBytes() / sizes.length);
    r.dataset.put("medianBytes", sizes.length == 0 ? 0 : sizes[sizes.length / 2]);
    r.dataset.put("p99Bytes", sizes.length == 0 ? 0 : sizes[(int) (sizes.length * 0.99)]);
    r.dataset.put("maxBytes", sizes.length == 0 ? 0 : sizes[sizes.length - 1]);
    r.dataset.put("batchSize", data.batchSize());
    r.dataset.put("generateMillis", millis);
  }

  static void deleteTree(Path root) throws IOException {
    BenchFiles.deleteTree(root);
  }
}
