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

/**
 * Suite 2 (the paper's Figs. 13 and 14): the time to get random files, cold and warm. Each
 * repetition draws {@code gets} random names (the same for every system, a new draw per
 * repetition) and every get is timed alone with {@link System#nanoTime}; the systems take turns
 * in a rotating order so that no system always runs first or last. Every returned file is
 * checked against its length and CRC32C, outside the timed region.
 *
 * <ul>
 *   <li>cold: each get runs on a new client (new FileSystem, new DFSClient: no connection, no
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
      reps.add(draw(members, config.gets, new SplittableRandom(config.seed + 1_000 + r)));
    }
    List<String> warmups = draw(members, Math.max(config.warmup, config.coldWarmup),
        new SplittableRandom(config.seed + 999));

    for (String mode : List.of("cold", "warm")) {
      boolean cold = mode.equals("cold");
      Map<String, BenchSystem.Reader> readers = new LinkedHashMap<>();
      try {
        if (!cold) {
          for (BenchSystem s : stores.systems()) {
            readers.put(s.name(), s.open(cluster.fs(), stores.destOf(s, n)));
          }
        }
        int warm = cold ? config.coldWarmup : config.warmup;
        for (BenchSystem s : stores.systems()) {
          int count = isScan(s) ? Math.min(warm, 1) : warm;
          for (int i = 0; i < count; i++) {
            check(byName, warmups.get(i),
                get(s, readers.get(s.name()), n, warmups.get(i)).bytes());
          }
        }
        Map<String, List<Double>> samples = new LinkedHashMap<>();
        Map<String, List<Double>> totals = new LinkedHashMap<>();
        List<BenchSystem> order = new ArrayList<>(stores.systems());
        for (int r = 0; r < reps.size(); r++) {
          for (BenchSystem s : order) {
            List<String> names = reps.get(r);
            if (isScan(s)) {
              if (r > 0) {
                continue;
              }
              names = names.subList(0, Math.min(names.size(), config.seqfileGets));
            }
            if (names.isEmpty()) {
              continue;
            }
            double total = 0;
            for (String name : names) {
              Timed got = get(s, readers.get(s.name()), n, name);
              long nanos = got.nanos();
              check(byName, name, got.bytes());
              samples.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(nanos / 1e3);
              total += nanos / 1e6;
            }
            totals.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(total);
          }
          order.add(order.remove(0));
        }
        for (BenchSystem s : stores.systems()) {
          List<Double> sample = samples.get(s.name());
          if (sample == null) {
            continue;
          }
          String note = isScan(s) ? "lookup by scan: " + sample.size() + " gets of the first"
              + " repetition's names only" : null;
          AccessResult result = AccessResult.of(s.name(), mode, n,
              isScan(s) ? sample.size() : config.gets, totals.get(s.name()),
              sample.stream().mapToDouble(Double::doubleValue).toArray(), note);
          results.access.add(result);
          log.printf(Locale.ROOT, "  %s %-12s p50 %,10.0f us  p90 %,10.0f us  p99 %,10.0f us%n",
              mode, s.name(), result.p50Micros(), result.p90Micros(), result.p99Micros());
        }
      } finally {
        for (BenchSystem.Reader reader : readers.values()) {
          reader.close();
        }
      }
    }
  }

  /** Median time of creating and closing a new client alone: part of every cold get. */
  double newClientMillis(int times) throws IOException {
    double[] t = new double[times];
    for (int i = 0; i < times; i++) {
      t[i] = cluster.withColdClient(() -> {
        long start = System.nanoTime();
        FileSystem.get(cluster.uri(), cluster.conf());
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
    org.apache.hadoop.conf.Configuration conf = cluster.conf();
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
