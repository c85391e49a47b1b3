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
import org.apache.hadoop.io.nativeio.NativeIO;
import org.hpf.minicluster.MiniClusterSettings;

/**
 * An in-process HDFS cluster for {@code hpf demo}: one NameNode and some DataNodes on the
 * loopback interface with ephemeral ports, storage under a given directory.
 */
final class EmbeddedCluster {
  /** Locked memory per DataNode for cached index files: far more than a demo archive needs. */
  static final long LOCKED_MEMORY = 64L << 20;

  private final MiniDFSCluster cluster;
  private final Configuration clientConf;

  private EmbeddedCluster(MiniDFSCluster cluster) {
    this.cluster = cluster;
    this.clientConf = new Configuration(cluster.getConfiguration(0));
    FileSystem.setDefaultUri(clientConf, cluster.getURI());
  }

  /** Starts the cluster and waits until every DataNode has registered. */
  static EmbeddedCluster start(File storage, int dataNodes) throws IOException {
    // Locked memory, and mlock skipped (no native library here), so that the index files'
    // cache directives are honoured and the demo shows them cached.
    NativeIO.POSIX.setCacheManipulator(new NativeIO.POSIX.NoMlockCacheManipulator());
    Configuration conf = MiniClusterSettings.withCaching(
        MiniClusterSettings.forSmallFiles(new Configuration()), LOCKED_MEMORY);
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
