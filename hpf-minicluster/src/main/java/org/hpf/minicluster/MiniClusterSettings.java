package org.hpf.minicluster;

import org.apache.hadoop.conf.Configuration;

/**
 * Settings for an in-process MiniDFSCluster that stores many small files: the one `hpf demo`
 * starts, the tests' and the benchmarks'. Not for real clusters.
 */
public final class MiniClusterSettings {
  private MiniClusterSettings() {}

  /**
   * Sets the client and server settings that keep small-file writes fast on one machine, and
   * returns {@code conf}. The client waits 400 ms by default before it asks the NameNode again
   * whether a block is complete, which made every small-file close() take ~400 ms; 10 ms keeps
   * closes in the low milliseconds. One-second heartbeats let a restarted DataNode rejoin fast.
   */
  public static Configuration forSmallFiles(Configuration conf) {
    conf.setInt("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", 10);
    conf.setInt("dfs.client.block.write.locateFollowingBlock.retries", 20);
    conf.setInt("dfs.client.retry.window.base", 10);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 4096);
    conf.setInt("dfs.bytes-per-checksum", 512);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setInt("dfs.namenode.heartbeat.recheck-interval", 1000);
    return conf;
  }

  /**
   * Lets the DataNodes cache blocks for centralized cache directives within about a second:
   * {@code lockedMemory} bytes of locked memory per DataNode, cache reports and the NameNode's
   * rescan of directives every 500 ms. Returns {@code conf}. A process without the native
   * library and a memlock limit must also install {@code NativeIO.POSIX.NoMlockCacheManipulator}
   * before the DataNodes start.
   */
  public static Configuration withCaching(Configuration conf, long lockedMemory) {
    conf.setLong("dfs.datanode.max.locked.memory", lockedMemory);
    conf.setLong("dfs.cachereport.intervalMsec", 500);
    conf.setLong("dfs.namenode.path.based.cache.refresh.interval.ms", 500);
    return conf;
  }
}
