package org.hpf.bench.mapreduce;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.HarFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.tools.HadoopArchives;
import org.apache.hadoop.util.ToolRunner;
import org.hpf.bench.BenchCluster;
import org.hpf.bench.DatasetGenerator;
import org.hpf.bench.Results;
import org.hpf.bench.systems.HarArchive;
import org.hpf.internal.build.JobDriver;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.SourceRemoval;
import org.hpf.internal.write.WriterOptions;

/**
 * The MapReduce build against {@code hadoop archive}: the same files uploaded to the cluster,
 * archived by Hadoop's HadoopArchives job and by hpf's JobDriver on the same job runner; job
 * times, NameNode objects before and after (sources kept, then removed), bytes stored, and get
 * latencies of both archives, every byte compared.
 */
public final class MapReduceRun {
  private final MapReduceConfig config;
  private final PrintStream log;
  private final DatasetGenerator generator;

  public MapReduceRun(MapReduceConfig config, PrintStream log) {
    this.config = config;
    this.log = log;
    this.generator = new DatasetGenerator(config.cluster.seed, config.minSize, config.maxSize,
        DatasetGenerator.SizeDistribution.LOG_UNIFORM, 1, DatasetGenerator.Content.TEXT);
  }

  /** Runs the comparison; returns the results written to {@code --out}. */
  public Map<String, Object> run() throws Exception {
    File work = config.cluster.workDir();
    Files.createDirectories(work.toPath());
    Map<String, Object> results = new LinkedHashMap<>();
    try (BenchCluster cluster = config.cluster.connectOrStart(work, config.blocks, log)) {
      FileSystem fs = cluster.fs();
      Path root = cluster.path("/mapreduce-bench");
      fs.delete(root, true);
      Path sources = new Path(root, "sources");
      long uploadMillis = upload(fs, sources);
      BenchCluster.NameNodeCount plain = cluster.count(sources);
      log.printf(Locale.ROOT, "uploaded %d files in %.1f s: %d NameNode objects%n",
          config.files, uploadMillis / 1000.0, plain.objects());
      results.put("files", config.files);
      results.put("uploadMillis", uploadMillis);
      results.put("plain", plain);

      Configuration jobs = org.hpf.bench.LocalRunner.configure(cluster.conf(), work,
          config.maps);
      Path har = new Path(root, "har");
      long harMillis = harJob(jobs, sources, har);
      Path harArchive = new Path(har, "data.har");
      BenchCluster.NameNodeCount harCount = cluster.count(harArchive);
      log.printf(Locale.ROOT, "HAR job: %.1f s, %d NameNode objects%n", harMillis / 1000.0,
          harCount.objects());

      Path hpf = new Path(root, "data.hpf");
      JobDriver.Result job = JobDriver.create(jobs, List.of(sources), hpf,
          WriterOptions.builder().layout(l -> l.withReplication(config.blocks.replication))
              .build());
      BenchCluster.NameNodeCount hpfCount = cluster.count(hpf);
      log.printf(Locale.ROOT, "hpf job: %.1f s (listing %.1f s, job %.1f s, %d maps), %d"
              + " NameNode objects%n", job.totalMillis() / 1000.0, job.listingMillis() / 1000.0,
          job.jobMillis() / 1000.0, job.maps(), hpfCount.objects());

      results.put("har", archive(harMillis, harCount, plain, gets(fs, harReader(fs, harArchive,
          jobs))));
      Map<String, Object> hpfResult = archive(job.totalMillis(), hpfCount, plain,
          gets(fs, hpfReader(cluster.conf(), hpf)));
      hpfResult.put("listingMillis", job.listingMillis());
      hpfResult.put("jobMillis", job.jobMillis());
      hpfResult.put("maps", job.maps());
      long removalStart = System.nanoTime();
      SourceRemoval.Result removal = SourceRemoval.run(cluster.conf(), hpf, List.of(sources),
          new SourceRemoval.Options(false, 8));
      hpfResult.put("removeSourcesMillis", (System.nanoTime() - removalStart) / 1_000_000);
      hpfResult.put("removedFiles", removal.filesDeleted());
      hpfResult.put("objectsFreedByRemoval", removal.namenodeObjectsFreed());
      hpfResult.put("sourceObjectsLeft", cluster.count(sources).objects());
      results.put("hpf", hpfResult);
    }
    write(results);
    if (!config.cluster.keepWork) {
      org.hpf.bench.BenchFiles.deleteTree(work.toPath());
    }
    return results;
  }

  /** Uploads the dataset in directories of {@code --batch} files, with 8 threads. */
  private long upload(FileSystem fs, Path sources) throws Exception {
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> pending = new ArrayList<>();
      for (int first = 0; first < config.files; first += config.batch) {
        int from = first;
        pending.add(pool.submit(() -> {
          for (int i = from; i < Math.min(from + config.batch, config.files); i++) {
            DatasetGenerator.Generated file = generator.generate(i);
            try (FSDataOutputStream out = fs.create(new Path(sources, pathOf(i, file)), false)) {
              out.write(file.bytes());
            }
          }
          return null;
        }));
      }
      for (Future<?> batch : pending) {
        batch.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return (System.nanoTime() - start) / 1_000_000;
  }

  /** Where file {@code i} lives below the sources (and so its name in both archives). */
  private String pathOf(int i, DatasetGenerator.Generated file) {
    return String.format(Locale.ROOT, "batch-%05d/%s", i / config.batch,
        file.name().replace('/', '_'));
  }

  private long harJob(Configuration conf, Path sources, Path dest) throws Exception {
    List<String> args = new ArrayList<>(List.of("-archiveName", "data.har", "-p",
        sources.toString(), "-r", Short.toString(config.blocks.replication)));
    args.add(dest.toString());
    long start = System.nanoTime();
    int code = ToolRunner.run(new Configuration(conf), new HadoopArchives(conf),
        args.toArray(new String[0]));
    if (code != 0) {
      throw new IOException("HadoopArchives exited with " + code);
    }
    return (System.nanoTime() - start) / 1_000_000;
  }

  private Map<String, Object> archive(long jobMillis, BenchCluster.NameNodeCount count,
      BenchCluster.NameNodeCount plain, Map<String, Object> gets) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("totalMillis", jobMillis);
    result.put("namenodeObjects", count.objects());
    result.put("objectsWithSourcesKept", count.objects() + plain.objects());
    result.put("objectsFractionOfPlain", (double) count.objects() / plain.objects());
    result.put("bytesStored", count.spaceConsumed());
    result.putAll(gets);
    return result;
  }

  /** Reads one member of an archive; a new one per cold get. */
  @FunctionalInterface
  private interface Opener {
    Member open() throws IOException;
  }

  private interface Member extends AutoCloseable {
    byte[] get(String name) throws IOException;

    @Override
    void close() throws IOException;
  }

  private static Opener hpfReader(Configuration conf, Path archive) {
    return () -> {
      HpfReader reader = HpfReader.open(conf, archive);
      return new Member() {
        @Override
        public byte[] get(String name) throws IOException {
          return reader.get(name);
        }

        @Override
        public void close() throws IOException {
          reader.close();
        }
      };
    };
  }

  private static Opener harReader(FileSystem fs, Path archive, Configuration conf) {
    java.net.URI uri = org.hpf.bench.systems.HarArchive.harUri(fs.makeQualified(archive));
    return () -> {
      HarFileSystem har = new HarFileSystem(fs);
      har.initialize(uri, conf);
      return new Member() {
        @Override
        public byte[] get(String name) throws IOException {
          try (FSDataInputStream in = har.open(new Path(uri.toString() + "/" + name))) {
            return in.readAllBytes();
          }
        }

        @Override
        public void close() {
          // not har.close(): it would close the shared client
        }
      };
    };
  }

  /** Warm gets on one open archive, then cold ones (each opens the archive), bytes compared. */
  private Map<String, Object> gets(FileSystem fs, Opener opener) throws IOException {
    SplittableRandom random = new SplittableRandom(config.cluster.seed);
    long[] warm = new long[config.gets];
    try (Member archive = opener.open()) {
      for (int i = 0; i < warm.length; i++) {
        int file = random.nextInt(config.files);
        DatasetGenerator.Generated expected = generator.generate(file);
        long start = System.nanoTime();
        byte[] bytes = archive.get(pathOf(file, expected));
        warm[i] = System.nanoTime() - start;
        check(expected, bytes);
      }
    }
    long[] cold = new long[config.coldGets];
    for (int i = 0; i < cold.length; i++) {
      int file = random.nextInt(config.files);
      DatasetGenerator.Generated expected = generator.generate(file);
      HarArchive.clearMetadataCache(); // a cold HAR open parses its index again
      long start = System.nanoTime();
      byte[] bytes;
      try (Member archive = opener.open()) {
        bytes = archive.get(pathOf(file, expected));
      }
      cold[i] = System.nanoTime() - start;
      check(expected, bytes);
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("warmP50Micros", percentile(warm, 50) / 1000);
    result.put("warmP99Micros", percentile(warm, 99) / 1000);
    result.put("coldP50Micros", percentile(cold, 50) / 1000);
    result.put("coldP99Micros", percentile(cold, 99) / 1000);
    return result;
  }

  private static void check(DatasetGenerator.Generated expected, byte[] bytes) {
    if (!Arrays.equals(expected.bytes(), bytes)) {
      throw new IllegalStateException("wrong bytes for " + expected.name());
    }
  }

  private static long percentile(long[] values, int p) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
  }

  private void write(Map<String, Object> results) throws IOException {
    Files.createDirectories(config.cluster.out.toPath());
    Results.mapper().writeValue(new File(config.cluster.out, "mapreduce.json"), results);
    String table = MapReduceReport.markdown(results);
    Files.writeString(new File(config.cluster.out, "mapreduce.md").toPath(), table,
        StandardCharsets.UTF_8);
    log.print(table);
  }
}
