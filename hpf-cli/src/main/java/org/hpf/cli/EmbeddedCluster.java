package org.hpf.cli;

import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * An in-process HDFS cluster for {@code hpf demo}: one NameNode and some DataNodes on the
 * loopback interface with ephemeral ports, storage under a given directory. Main code cannot use
 * hpf-core's test {@code MiniDfs}, so this repeats its fast-client settings.
 */
final class EmbeddedCluster {
  private final MiniDFSCluster cluster;
  private final Configuration clientConf;

  private EmbeddedCluster(MiniDFSCluster cluster) {
    this.cluster = cluster;
    this.clientConf = new Configuration(cluster.getConfiguration(0));
    FileSystem.setDefaultUri(clientConf, cluster.getURI());
  }

  /** Starts the cluster and waits until every DataNode has registered. */
  static EmbeddedCluster start(File storage, int dataNodes) throws IOException {
    Configuration conf = settings();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, storage.getAbsolutePath());
    conf.set("hadoop.tmp.dir", new File(storage, "tmp").getAbsolutePath());
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, storage)
        .numDataNodes(dataNodes)
        .build();
    try {
      cluster.waitActive();
    } catch (IOException | RuntimeException e) {
      cluster.shutdown(true);
      throw e;
    }
    return new EmbeddedCluster(cluster);
  }

  /**
   * The settings of hpf-core's {@code MiniDfs.testConfiguration()}: the client waits 400 ms by
   * default before it asks the NameNode again whether a block is complete, which makes every
   * small-file close() take ~400 ms; 10 ms keeps closes in the low milliseconds.
   */
  static Configuration settings() {
    Configuration conf = new Configuration();
    conf.setInt("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", 10);
    conf.setInt("dfs.client.block.write.locateFollowingBlock.retries", 20);
    conf.setInt("dfs.client.retry.window.base", 10);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 4096);
    conf.setInt("dfs.bytes-per-checksum", 512);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setInt("dfs.namenode.heartbeat.recheck-interval", 1000);
    return conf;
  }

  /** A client configuration whose default file system is this cluster. */
  Configuration configuration() {
    return new Configuration(clientConf);
  }

  URI uri() {
    return cluster.getURI();
  }

  DistributedFileSystem fileSystem() throws IOException {
    return cluster.getFileSystem();
  }

  /** Files and directories in the NameNode's namespace (its inodes). */
  long inodes() {
    return cluster.getNamesystem().getFilesTotal();
  }

  /** Blocks the NameNode tracks. */
  long blocks() {
    return cluster.getNamesystem().getBlocksTotal();
  }

  /**
   * The NameNode's block total once it has caught up with the files under {@code dir}: since
   * Hadoop 3.4 it removes the blocks of deleted files (here: the writer's journal) in a
   * background thread, so the total can lag a deletion briefly. Waits at most 10 s.
   */
  long awaitBlocks(long blocksBefore, Path dir) throws IOException {
    long expected = blocksBefore;
    RemoteIterator<LocatedFileStatus> files = fileSystem().listFiles(dir, true);
    while (files.hasNext()) {
      expected += files.next().getBlockLocations().length;
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (blocks() != expected && System.nanoTime() < deadline) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting for the NameNode");
      }
    }
    return blocks();
  }

  /** Stops the cluster; its storage is deleted unless {@code keepStorage}. */
  void shutdown(boolean keepStorage) throws IOException {
    try {
      // The client the writer and reader shared through Hadoop's FileSystem cache.
      FileSystem.get(cluster.getURI(), clientConf).close();
    } finally {
      cluster.shutdown(!keepStorage);
    }
  }
}
