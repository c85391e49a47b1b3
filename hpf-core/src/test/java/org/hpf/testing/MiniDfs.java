package org.hpf.testing;

import java.io.File;
import java.io.IOException;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.hpf.minicluster.MiniClusterSettings;

/**
 * One MiniDFSCluster (3 DataNodes, loopback, ephemeral ports, storage under target/) shared by
 * all tests of a JVM (the surefire fork) and shut down when that JVM exits.
 */
public final class MiniDfs {
  private static MiniDfs instance;

  private final MiniDFSCluster cluster;

  private MiniDfs(MiniDFSCluster cluster) {
    this.cluster = cluster;
  }

  /** Settings for fast tests: {@link MiniClusterSettings#forSmallFiles}. */
  public static Configuration testConfiguration() {
    return MiniClusterSettings.forSmallFiles(new Configuration());
  }

  /** The shared cluster, started on first use. */
  public static synchronized MiniDfs shared() throws IOException {
    if (instance == null) {
      Configuration conf = testConfiguration();
      File base = new File(System.getProperty("test.build.data", "target/test-data"),
          "minidfs-" + UUID.randomUUID());
      conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.getAbsolutePath());
      MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, base).numDataNodes(3).build();
      cluster.waitActive();
      instance = new MiniDfs(cluster);
      Runtime.getRuntime().addShutdownHook(new Thread(MiniDfs::shutdownShared));
    }
    return instance;
  }

  private static synchronized void shutdownShared() {
    if (instance != null) {
      instance.cluster.shutdown(true);
      instance = null;
    }
  }

  public MiniDFSCluster cluster() {
    return cluster;
  }

  public DistributedFileSystem fileSystem() throws IOException {
    return cluster.getFileSystem();
  }

  /** A configuration whose default file system is this cluster. */
  public Configuration configuration() {
    Configuration conf = new Configuration(cluster.getConfiguration(0));
    conf.set(FileSystem.FS_DEFAULT_NAME_KEY, cluster.getURI().toString());
    return conf;
  }
}
