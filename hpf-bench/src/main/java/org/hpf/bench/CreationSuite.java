package org.hpf.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.bench.DatasetGenerator.Dataset;
import org.hpf.bench.Results.CreationPoint;
import org.hpf.bench.systems.BenchSystem.Creation;
import org.hpf.bench.systems.BenchSystem;

/**
 * Suite 1 (the paper's Fig. 12): the time each system takes to store N files, for each N
 * (increasing). HDFS goes first since HAR archives its upload; the HDFS upload of N files is
 * continued, not repeated, for the next N (see HdfsFiles). Stores of every N but the largest
 * are removed once measured; the largest stays for the other suites.
 */
final class CreationSuite {
  private final BenchCluster cluster;
  private final Stores stores;
  private final PrintStream log;

  CreationSuite(BenchCluster cluster, Stores stores, PrintStream log) {
    this.cluster = cluster;
    this.stores = stores;
    this.log = log;
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
        results.creation.add(new CreationPoint(system.name(), n, original, created.millis(),
            details));
        log.printf(Locale.ROOT, "  created %-12s %,9d files in %,10.1f s%n", system.name(), n,
            created.millis() / 1e3);
      }
      if (n != keep) {
        fs.delete(stores.dirOf(n), true);
      }
    }
  }
}
