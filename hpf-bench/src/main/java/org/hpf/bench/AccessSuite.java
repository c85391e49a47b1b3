package org.hpf.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.bench.DatasetGenerator.Dataset;
import org.hpf.bench.DatasetGenerator.Member;
import org.hpf.bench.Results.AccessResult;
import org.hpf.bench.systems.BenchSystem;
import org.hpf.bench.systems.HpfArchive;
import org.hpf.internal.read.RecordCacheStats;

/**
 * Suite 2 (the paper's Figs. 13 and 14): the time to get random files, cold and warm. Each
 * repetition draws {@code gets} random names (the same for every system, a new draw per
 * repetition) and every get is timed alone with {@link System#nanoTime}; the systems take turns,
 * one get each, in an order that rotates every repetition, so that no system always runs first
 * or last and a burst of the machine's falls on all of them alike. Every returned file is
 * checked against its length and CRC32C, outside the timed region.
 *
 * <ul>
 *   <li>cold: each get runs on a new client (new FileSystem, new DFSClient in its own client
 *       context: no connection, not even one another client left in the JVM's peer cache, no
 *       cached metadata), opens the store (HAR: parses its index, HAR's static metadata cache
 *       emptied first; MapFile: loads its index; HPF: reads manifest and directory, then the
 *       bucket's function), reads the file, and closes everything. The time includes creating
 *       the client, the same for every system.
 *   <li>warm: one reader per system, opened before the warm-up and kept (HAR's metadata parsed
 *       once, MapFile's index loaded, HPF's bucket functions cached, streams open).
 * </ul>
 *
 * SequenceFile has no index: a get scans from the first record, so only {@code seqfileGets}
 * of the first repetition's names are timed for it (noted in the results).
 *
 * <p>Then the batch-get row ({@link BatchGets}): a thousand names read by one batch call.
 */
final class AccessSuite {
  private final BenchCluster cluster;
  private final Stores stores;
  private final BenchConfig config;
  private final PrintStream log;

  AccessSuite(BenchCluster cluster, Stores stores, BenchConfig config, PrintStream log) {
    this.cluster = cluster;
    this.stores = stores;
    this.config = config;
    this.log = log;
  }

  void run(Dataset data, int n, Results results) throws IOException {
    List<Member> members = data.first(n);
    Map<String, Member> byName = new HashMap<>();
    for (Member m : members) {
      byName.put(m.name(), m);
    }
    List<List<String>> reps = new ArrayList<>();
    for (int r = 0; r < config.reps; r++) {
      reps.add(draw(members, config.gets,
          new SplittableRandom(config.cluster.seed + 1_000 + r)));
    }
    List<String> warmups = draw(members, Math.max(config.warmup, config.coldWarmup),
        new SplittableRandom(config.cluster.seed + 999));

    for (String mode : List.of("cold", "warm")) {
      boolean cold = mode.equals("cold");
      List<Variant> variants = variants(cold);
      Map<String, BenchSystem.Reader> readers = new LinkedHashMap<>();
      Map<String, RecordCacheStats> cacheBefore = new HashMap<>();
      try {
        if (!cold) {
          for (Variant v : variants) {
            readers.put(v.label, v.system instanceof HpfArchive hpf
                ? hpf.open(cluster.fs(), stores.destOf(hpf, n), v.recordCacheBytes)
                : v.system.open(cluster.fs(), stores.destOf(v.system, n)));
          }
        }
        int warm = cold ? config.coldWarmup : config.warmup;
        for (Variant v : variants) {
          int count = isScan(v.system) ? Math.min(warm, 1) : warm;
          for (int i = 0; i < count; i++) {
            check(byName, warmups.get(i),
                get(v.system, readers.get(v.label), n, warmups.get(i)).bytes());
          }
          if (readers.get(v.label) instanceof HpfArchive.CachingReader cached
              && v.recordCacheBytes > 0) {
            // A hot set that fits the cache: every name to be measured has been read once.
            for (List<String> rep : reps) {
              for (String name : rep) {
                cached.get(name);
              }
            }
            cacheBefore.put(v.label, cached.recordCacheStats());
          }
        }
        Map<String, List<Double>> samples = new LinkedHashMap<>();
        Map<String, List<Double>> totals = new LinkedHashMap<>();
        List<Variant> order = new ArrayList<>(variants);
        for (int r = 0; r < reps.size(); r++) {
          List<String> names = reps.get(r);
          // The systems take turns, a get each (the first of each turn rotating), so that a
          // burst of the machine's (a collection, a compilation, a daemon's pause) falls on all
          // alike rather than on one system's whole repetition.
          Map<String, Double> repTotals = new LinkedHashMap<>();
          for (int i = 0; i < names.size(); i++) {
            for (Variant v : order) {
              if (isScan(v.system)) {
                continue;
              }
              double millis = timedGet(v, readers, n, byName, names.get(i), samples);
              repTotals.merge(v.label, millis, Double::sum);
            }
          }
          for (Variant v : order) {
            if (isScan(v.system) && r == 0) {
              // A scan's get costs seconds: the first repetition's first names only.
              for (String name : names.subList(0, Math.min(names.size(), config.seqfileGets))) {
                repTotals.merge(v.label, timedGet(v, readers, n, byName, name, samples),
                    Double::sum);
              }
            }
          }
          repTotals.forEach((label, total) ->
              totals.computeIfAbsent(label, k -> new ArrayList<>()).add(total));
          order.add(order.remove(0));
        }
        for (Variant v : variants) {
          BenchSystem s = v.system;
          List<Double> sample = samples.get(v.label);
          if (sample == null) {
            continue;
          }
          String note = isScan(s) ? "lookup by scan: " + sample.size() + " gets of the first"
              + " repetition's names only" : null;
          if (readers.get(v.label) instanceof HpfArchive.CachingReader held
              && v.recordCacheBytes == 0) {
            note = String.format(Locale.ROOT, "index records held in memory after the run:"
                + " %,d bytes", held.heldIndexBytes());
          }
          if (readers.get(v.label) instanceof HpfArchive.CachingReader cached
              && v.recordCacheBytes > 0) {
            RecordCacheStats stats = cached.recordCacheStats();
            RecordCacheStats before = cacheBefore.get(v.label);
            note = String.format(Locale.ROOT, "record cache of %d MiB: %,d records (%,d bytes)"
                + " after the run; timed gets: %,d hits, %,d misses", v.recordCacheBytes >> 20,
                stats.records(), stats.bytes(), stats.hits() - before.hits(),
                stats.misses() - before.misses());
          }
          AccessResult result = AccessResult.of(v.label, mode, n,
              isScan(s) ? sample.size() : config.gets, totals.get(v.label),
              sample.stream().mapToDouble(Double::doubleValue).toArray(), note);
          results.access.add(result);
          log.printf(Locale.ROOT, "  %s %-12s p50 %,10.0f us  p90 %,10.0f us  p99 %,10.0f us%s%n",
              mode, v.label, result.p50Micros(), result.p90Micros(), result.p99Micros(),
              note == null ? "" : "  (" + note + ")");
        }
      } finally {
        for (BenchSystem.Reader reader : readers.values()) {
          reader.close();
        }
      }
    }
    log.println("  batch gets");
    new BatchGets(cluster, stores, config, log).run(members, got -> {
      for (Map.Entry<String, byte[]> e : got.entrySet()) {
        check(byName, e.getKey(), e.getValue());
      }
    }, n, results);
  }

  /** One timed, checked get of {@code v}; its time is added to the samples, and returned (ms). */
  private double timedGet(Variant v, Map<String, BenchSystem.Reader> readers, int n,
      Map<String, Member> byName, String name, Map<String, List<Double>> samples)
      throws IOException {
    Timed got = get(v.system, readers.get(v.label), n, name);
    check(byName, name, got.bytes());
    samples.computeIfAbsent(v.label, k -> new ArrayList<>()).add(got.nanos() / 1e3);
    return got.nanos() / 1e6;
  }

  /**
   * What is measured: every system; when warm, also HPF with a record cache ("HPF+cache"),
   * whose warm-up reads every name to be measured once, so the hot set is cached.
   */
  private record Variant(String label, BenchSystem system, long recordCacheBytes) {}

  private List<Variant> variants(boolean cold) {
    List<Variant> variants = new ArrayList<>();
    for (BenchSystem s : stores.systems()) {
      variants.add(new Variant(s.name(), s, 0));
      if (!cold && s instanceof HpfArchive && config.hpfRecordCacheMib > 0) {
        variants.add(new Variant(s.name() + "+cache", s, (long) config.hpfRecordCacheMib << 20));
      }
    }
    return variants;
  }

  /** Median time of creating and closing a new client alone: part of every cold get. */
  double newClientMillis(int times) throws IOException {
    double[] t = new double[times];
    for (int i = 0; i < times; i++) {
      t[i] = cluster.withColdClient(() -> {
        long start = System.nanoTime();
        FileSystem.get(cluster.uri(), cluster.coldConf());
        return (System.nanoTime() - start) / 1e6;
      });
    }
    java.util.Arrays.sort(t);
    return Results.percentile(t, 0.5);
  }

  private static boolean isScan(BenchSystem s) {
    return s.name().equals("SequenceFile");
  }

  /** A get's bytes and its time. */
  private record Timed(byte[] bytes, long nanos) {}

  /**
   * One get. Cold: the clock runs from creating the client to closing the reader; the client is
   * closed after the clock stops (its close is the same for every system and, for DFSClient,
   * mostly the lease renewer's shutdown).
   */
  private Timed get(BenchSystem s, BenchSystem.Reader warm, int n, String name)
      throws IOException {
    if (warm != null) {
      long start = System.nanoTime();
      byte[] bytes = warm.get(name);
      return new Timed(bytes, System.nanoTime() - start);
    }
    org.apache.hadoop.conf.Configuration conf = cluster.coldConf();
    org.apache.hadoop.fs.Path dest = stores.destOf(s, n);
    return cluster.withColdClient(() -> {
      s.clearGlobalCaches();
      long start = System.nanoTime();
      FileSystem fs = FileSystem.get(cluster.uri(), conf);
      byte[] bytes;
      try (BenchSystem.Reader reader = s.open(fs, dest)) {
        bytes = reader.get(name);
      }
      return new Timed(bytes, System.nanoTime() - start);
    });
  }

  private static List<String> draw(List<Member> members, int count, SplittableRandom random) {
    List<String> names = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      names.add(members.get(random.nextInt(members.size())).name());
    }
    return names;
  }

  private static void check(Map<String, Member> byName, String name, byte[] bytes)
      throws IOException {
    Member m = byName.get(name);
    CRC32C crc = new CRC32C();
    crc.update(bytes);
    if (bytes.length != m.size() || (int) crc.getValue() != m.crc32c()) {
      throw new IOException(String.format(Locale.ROOT, "wrong bytes for %s: %d bytes, CRC32C"
          + " %08x; expected %d bytes, %08x", name, bytes.length, (int) crc.getValue(),
          m.size(), m.crc32c()));
    }
  }
}
