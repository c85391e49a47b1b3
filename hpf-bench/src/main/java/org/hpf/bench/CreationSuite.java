package org.hpf.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.bench.DatasetGenerator.Dataset;
import org.hpf.bench.Results.CreationPoint;
import org.hpf.bench.systems.BenchSystem.Creation;
import org.hpf.bench.systems.BenchSystem;
import org.hpf.bench.systems.HdfsFiles;
import org.hpf.bench.systems.HpfArchive;
import org.hpf.bench.systems.ShellPut;

/**
 * Suite 1 (the paper's Fig. 12): the time each system takes to store N files, for each N
 * (increasing). HDFS goes first since HAR archives its upload; the HDFS upload of N files is
 * continued, not repeated, for the next N (see HdfsFiles). Stores of every N but the largest
 * are removed once measured; the largest stays for the other suites. After the HDFS upload of
 * N files, {@code hdfs dfs -put -t T} of the same files is timed too ({@link ShellPut}), as the
 * row "HDFS -put -t T", and its files removed: it is the upload a user would run instead.
 * After HPF's create, the floor of that create is measured ({@link CreationFloor}).
 */
final class CreationSuite {
  private final BenchCluster cluster;
  private final Stores stores;
  private final PrintStream log;
  private final int putThreads;

  /** {@code putThreads}: of the shell's parallel upload, or 0 not to time it. */
  CreationSuite(BenchCluster cluster, Stores stores, int putThreads, PrintStream log) {
    this.cluster = cluster;
    this.stores = stores;
    this.putThreads = putThreads;
    this.log = log;
  }

  /** The row of the shell's parallel upload in the results. */
  static String shellPutRow(int threads) {
    return "HDFS -put -t " + threads;
  }

  void run(Dataset data, List<Integer> sizes, int keep, Results results) throws IOException {
    FileSystem fs = cluster.fs();
    for (int n : sizes.stream().sorted().distinct().toList()) {
      long original = data.bytesOfFirst(n);
      for (BenchSystem system : stores.systems()) {
        long[] before = cluster.namesystemTotals();
        Creation created = system.create(data, n, stores.destOf(system, n));
        Map<String, Object> details = new LinkedHashMap<>(created.details());
        long[] after = cluster.namesystemTotals();
        if (before != null) {
          details.put("namesystemInodesDelta", after[0] - before[0]);
          details.put("namesystemBlocksDelta", after[1] - before[1]);
        }
        if (system instanceof HpfArchive) {
          CreationFloor.Floor floor = CreationFloor.measure(fs, data, n,
              stores.destOf(system, n), new Path(stores.dirOf(n), "floor"));
          details.putAll(floor.details(created.millis()));
          log.printf(Locale.ROOT, "  floor %,d files: read %.1f s + write %.1f s = %.1f s;"
              + " create / floor = %.2f%n", n, floor.readMillis() / 1e3,
              floor.writeMillis() / 1e3, floor.millis() / 1e3,
              (double) created.millis() / floor.millis());
        }
        add(results, system.name(), n, original, created.millis(), details);
        if (system instanceof HdfsFiles && putThreads > 0) {
          Path dest = new Path(stores.dirOf(n), "shell-put");
          long millis = ShellPut.put(cluster.conf(), data, n, dest, putThreads);
          fs.delete(dest, true);
          add(results, shellPutRow(putThreads), n, original, millis,
              Map.of("threads", putThreads));
        }
      }
      if (n != keep) {
        fs.delete(stores.dirOf(n), true);
      }
    }
  }

  private void add(Results results, String system, int n, long original, long millis,
      Map<String, Object> details) {
    results.creation.add(new CreationPoint(system, n, original, millis, details));
    log.printf(Locale.ROOT, "  created %-15s %,9d files in %,10.1f s%n", system, n,
        millis / 1e3);
  }
}
