package org.hpf.bench;

import java.lang.reflect.Field;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.metrics.DataNodeMetrics;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;

/** A MiniDFSCluster in this JVM, sharing it with the benchmark's client. */
final class InProcessDaemons implements ClusterDaemons {
  private final MiniDFSCluster mini;

  InProcessDaemons(MiniDFSCluster mini) {
    this.mini = mini;
  }

  /**
   * Read from the DataNodes' metrics objects directly: they have no public getters, and their
   * JMX view is refreshed only every metrics period (10 s), too stale for a scan of seconds.
   */
  @Override
  public long dataNodeCounter(String field) {
    long total = 0;
    try {
      Field counter = DataNodeMetrics.class.getDeclaredField(field);
      counter.setAccessible(true);
      for (DataNode dn : mini.getDataNodes()) {
        total += ((MutableCounterLong) counter.get(dn.getMetrics())).value();
      }
    } catch (ReflectiveOperationException | ClassCastException e) {
      return -1;
    }
    return total;
  }

  @Override
  public long[] namesystemTotals() {
    return new long[] {mini.getNamesystem().getFilesTotal(),
        mini.getNamesystem().getBlocksTotal()};
  }

  @Override
  public int dataNodes() {
    return mini.getDataNodes().size();
  }

  @Override
  public void close() {
    mini.shutdown(true);
  }
}
