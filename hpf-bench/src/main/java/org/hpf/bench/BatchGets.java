package org.hpf.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.Path;
import org.hpf.ArchiveReader;
import org.hpf.BatchRead;
import org.hpf.ReadSettings;
import org.hpf.bench.DatasetGenerator.Member;
import org.hpf.bench.Results.BatchGetResult;
import org.hpf.bench.systems.BenchSystem;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.read.BatchReader;
import org.hpf.internal.read.BatchReader.RangeReads;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;

/**
 * The batch-get row of suite 2: {@value #COUNT} random names, and the members of the directory
 * whose size is closest to {@value #COUNT}, read by one batch call of a warm reader, against
 * the same names read one by one by the same reader, and against HDFS reading the same plain
 * files with {@value #HDFS_THREADS} threads. The batch is also timed with Hadoop's vectored
 * read forced (HDFS has no native one: it reads one range after another), to choose between it
 * and parallel positioned reads by measurement, and with 2 and 8 threads rather than the
 * default. Every way takes its turn in a rotating order; each repetition's total time is kept,
 * and every member's bytes are checked against its length and CRC32C after the clock stops.
 */
final class BatchGets {
  static final int COUNT = 1000;
  static final int HDFS_THREADS = 8;

  private final BenchCluster cluster;
  private final Stores stores;
  private final BenchConfig config;
  private final PrintStream log;

  BatchGets(BenchCluster cluster, Stores stores, BenchConfig config, PrintStream log) {
    this.cluster = cluster;
    this.stores = stores;
    this.config = config;
    this.log = log;
  }

  /** One way of reading a selection of names; returns their bytes by name. */
  @FunctionalInterface
  private interface Way {
    Map<String, byte[]> read(List<String> names) throws IOException;
  }

  void run(List<Member> members, AccessChecks checks, int n, Results results)
      throws IOException {
    BenchSystem hpf = stores.get("HPF");
    if (hpf == null) {
      return;
    }
    BenchSystem hdfs = stores.get("HDFS");
    Path archive = stores.destOf(hpf, n);
    List<String> random = distinctRandom(members, new SplittableRandom(config.cluster.seed + 7));
    String directory = directoryNear(members, COUNT);
    List<String> below = members.stream().map(Member::name)
        .filter(name -> name.startsWith(directory + "/")).sorted().toList();
    try (ArchiveReader reader = org.hpf.HpfArchive.openReader(archive, cluster.conf(),
            ReadSettings.defaults());
        HpfReader engine = HpfReader.open(cluster.fs(), archive, ReaderOptions.defaults());
        BenchSystem.Reader files = hdfs == null ? null
            : hdfs.open(cluster.fs(), stores.destOf(hdfs, n))) {
      measure(String.format(Locale.ROOT, "%,d random names", random.size()), random,
          ways(reader, files, names -> batch(reader, names),
              (names, reads, threads) -> engine(engine, names, reads, threads)), checks,
          results);
      // The directory's ways read it as a listing gives it: where each member lies.
      measure(String.format(Locale.ROOT, "directory %s/ (%,d names)", directory, below.size()),
          below, ways(reader, files, names -> directory(reader, directory),
              (names, reads, threads) -> listed(engine, directory, reads, threads)), checks,
          results);
    }
  }

  /** The engine's batch read of a selection, runs read as {@code reads} says. */
  @FunctionalInterface
  private interface EngineWay {
    Map<String, byte[]> read(List<String> names, RangeReads reads, int threads)
        throws IOException;
  }

  /** The ways to read a selection; {@code batch} is the API's batch call for it. */
  private static Map<String, Way> ways(ArchiveReader reader, BenchSystem.Reader files,
      Way batch, EngineWay engine) {
    Map<String, Way> ways = new TreeMap<>();
    ways.put("HPF batch", batch);
    ways.put("HPF batch, vectored read", names -> engine.read(names, RangeReads.VECTORED,
        BatchRead.defaults().threads()));
    for (int threads : new int[] {2, 8}) {
      ways.put("HPF batch, " + threads + " threads",
          names -> engine.read(names, RangeReads.PARALLEL, threads));
    }
    ways.put("HPF one by one", names -> oneByOne(reader, names));
    if (files != null) {
      ways.put("HDFS files, " + HDFS_THREADS + " threads", names -> threads(files, names));
    }
    return ways;
  }

  private void measure(String selection, List<String> names, Map<String, Way> ways,
      AccessChecks checks, Results results) throws IOException {
    List<String> order = new ArrayList<>(ways.keySet());
    for (String way : order) {
      checks.check(ways.get(way).read(names)); // warm-up: files open, functions loaded
    }
    Map<String, List<Double>> millis = new TreeMap<>();
    for (int r = 0; r < config.reps; r++) {
      for (String way : order) {
        long start = System.nanoTime();
        Map<String, byte[]> got = ways.get(way).read(names);
        millis.computeIfAbsent(way, k -> new ArrayList<>())
            .add((System.nanoTime() - start) / 1e6);
        if (got.size() != new java.util.HashSet<>(names).size()) {
          throw new IOException(way + " read " + got.size() + " of " + names.size());
        }
        checks.check(got);
      }
      order.add(order.remove(0));
    }
    double single = median(millis.get("HPF one by one"));
    for (Map.Entry<String, List<Double>> e : millis.entrySet()) {
      BatchGetResult result = new BatchGetResult(selection, e.getKey(), names.size(),
          List.copyOf(e.getValue()), median(e.getValue()));
      results.batchGets.add(result);
      log.printf(Locale.ROOT, "  %s, %-28s median %,9.1f ms  (%.1fx one by one)%n", selection,
          e.getKey(), result.medianMillis(), single / result.medianMillis());
    }
  }

  private static Map<String, byte[]> batch(ArchiveReader reader, List<String> names)
      throws IOException {
    Map<String, byte[]> got = new ConcurrentHashMap<>();
    reader.readAll(names, BatchRead.defaults(), member -> got.put(member.name(),
        member.bytes()));
    return got;
  }

  private static Map<String, byte[]> directory(ArchiveReader reader, String directory)
      throws IOException {
    Map<String, byte[]> got = new ConcurrentHashMap<>();
    reader.readDirectory(directory, BatchRead.defaults(), member -> got.put(member.name(),
        member.bytes()));
    return got;
  }

  /** The engine's batch read, runs read as {@code reads} says, on {@code threads} threads. */
  private static Map<String, byte[]> engine(HpfReader engine, List<String> names,
      RangeReads reads, int threads) throws IOException {
    Map<String, byte[]> got = new ConcurrentHashMap<>();
    BatchReader.read(engine, names.iterator(), settings(reads, threads),
        member -> got.put(member.name(), member.bytes()));
    return got;
  }

  /** The engine's batch read of a directory's listing, on {@code threads} threads. */
  private static Map<String, byte[]> listed(HpfReader engine, String directory,
      RangeReads reads, int threads) throws IOException {
    Map<String, byte[]> got = new ConcurrentHashMap<>();
    try (java.util.stream.Stream<NameEntry> below = engine.listEntries(directory + "/")) {
      BatchReader.readListed(engine, below.iterator(), settings(reads, threads),
          member -> got.put(member.name(), member.bytes()));
    }
    return got;
  }

  private static BatchReader.Settings settings(RangeReads reads, int threads) {
    BatchRead defaults = BatchRead.defaults();
    return new BatchReader.Settings(defaults.windowBytes(), defaults.gapBytes(), threads, false,
        reads);
  }

  private static Map<String, byte[]> oneByOne(ArchiveReader reader, List<String> names)
      throws IOException {
    Map<String, byte[]> got = new ConcurrentHashMap<>();
    for (String name : names) {
      got.put(name, reader.get(name));
    }
    return got;
  }

  private static Map<String, byte[]> threads(BenchSystem.Reader files, List<String> names)
      throws IOException {
    Map<String, byte[]> got = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(HDFS_THREADS);
    try {
      List<Future<?>> reads = new ArrayList<>();
      for (String name : names) {
        reads.add(pool.submit(() -> {
          got.put(name, files.get(name));
          return null;
        }));
      }
      for (Future<?> read : reads) {
        read.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted");
    } catch (ExecutionException e) {
      throw new IOException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
    return got;
  }

  private static List<String> distinctRandom(List<Member> members, SplittableRandom random) {
    List<String> names = new ArrayList<>();
    for (Member m : members) {
      names.add(m.name());
    }
    for (int i = 0; i < Math.min(COUNT, names.size()); i++) {
      Collections.swap(names, i, i + random.nextInt(names.size() - i));
    }
    return List.copyOf(names.subList(0, Math.min(COUNT, names.size())));
  }

  /** The directory (at any depth) whose number of members is closest to {@code count}. */
  private static String directoryNear(List<Member> members, int count) {
    Map<String, Integer> sizes = new TreeMap<>();
    for (Member m : members) {
      String name = m.name();
      for (int slash = name.indexOf('/'); slash > 0; slash = name.indexOf('/', slash + 1)) {
        sizes.merge(name.substring(0, slash), 1, Integer::sum);
      }
    }
    String best = null;
    for (Map.Entry<String, Integer> e : sizes.entrySet()) {
      if (best == null
          || Math.abs(e.getValue() - count) < Math.abs(sizes.get(best) - count)) {
        best = e.getKey();
      }
    }
    return best;
  }

  private static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return Results.percentile(sorted, 0.5);
  }

  /** Checks members' bytes against the dataset. */
  @FunctionalInterface
  interface AccessChecks {
    void check(Map<String, byte[]> got) throws IOException;
  }
}
