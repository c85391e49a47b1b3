package org.hpf.bench;

import java.io.Closeable;
import java.io.IOException;

/**
 * The HDFS daemons a run started itself, in this JVM or in a child process: they answer what a
 * client cannot ask a NameNode or DataNode (exact activity counters, the namespace's totals) and
 * stop when closed. A cluster named by {@code --fs} has none.
 */
interface ClusterDaemons extends Closeable {
  /**
   * A counter of the DataNodes' activity metrics since they started, summed over the DataNodes
   * ({@code bytesWritten}, {@code bytesRead}, {@code blocksRead}, ...), or -1 if there is no
   * such counter.
   */
  long dataNodeCounter(String field) throws IOException;

  /** The NameNode's inodes (files and directories) and blocks. */
  long[] namesystemTotals() throws IOException;

  /** DataNodes running. */
  int dataNodes();

  /** The garbage collection log of the daemons' own JVM, or null where they share this one. */
  default java.io.File gcLog() {
    return null;
  }
}
