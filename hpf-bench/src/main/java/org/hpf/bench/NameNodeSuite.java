package org.hpf.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;
import org.apache.hadoop.fs.Path;
import org.hpf.bench.BenchCluster.NameNodeCount;
import org.hpf.bench.Results.StoreCount;
import org.hpf.bench.systems.BenchSystem;

/**
 * Suites 3 and 4 (the paper's Figs. 15 and 16): what each store costs the NameNode and the
 * DataNodes, measured from the NameNode by RPC (getContentSummary for files, directories and
 * bytes; the located blocks of every file for the block count). Memory is the object-size model
 * of "HDFS scalability: the limits to growth": RAM = (inodes + blocks) x bytes per object.
 */
final class NameNodeSuite {
  private final BenchCluster cluster;
  private final Stores stores;
  private final int objectBytes;
  private final PrintStream log;

  NameNodeSuite(BenchCluster cluster, Stores stores, int objectBytes, PrintStream log) {
    this.cluster = cluster;
    this.stores = stores;
    this.objectBytes = objectBytes;
    this.log = log;
  }

  void run(int n, long originalBytes, Results results) throws IOException {
    for (BenchSystem s : stores.systems()) {
      Path store = s.storeOf(stores.destOf(s, n));
      NameNodeCount c = cluster.count(store);
      long objects = c.objects();
      StoreCount count = new StoreCount(s.name(), n, store.toUri().getPath(), c.files(),
          c.directories(), c.blocks(), objects, objects * objectBytes, c.length(),
          c.spaceConsumed(), originalBytes);
      results.stores.add(count);
      log.printf(Locale.ROOT, "  %-12s %,9d files %,6d dirs %,9d blocks  %,14d bytes (%.3f of"
          + " original)%n", s.name(), c.files(), c.directories(), c.blocks(), c.length(),
          count.sizeRatio());
    }
  }
}
