package org.hpf.internal.hdfs;

import java.io.File;
import java.io.IOException;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.io.nativeio.NativeIO;
import org.hpf.minicluster.MiniClusterSettings;
import org.hpf.testing.MiniDfs;

/**
 * A MiniDFSCluster whose DataNodes each have a RAM_DISK and a DISK volume and locked memory, so
 * that LazyPersist writes and centralized caching work without the native library (the cache
 * manipulator that skips mlock is installed before the cluster starts).
 *
 * <p>Settings, and why:
 * <ul>
 *   <li>{@code dfs.blocksize} 1 MiB: a DataNode reserves one block size of locked memory per
 *       replica it places in RAM_DISK, so small blocks let a few MiB of locked memory hold many.
 *   <li>{@code dfs.datanode.max.locked.memory} 64 MiB per DataNode, shared by LazyPersist
 *       replicas and cached blocks; RAM_DISK volumes of 32 MiB.
 *   <li>cache reports every 500 ms and the NameNode's cache rescan every 500 ms, so directives
 *       are honoured within about a second.
 *   <li>the DataNodes' lazy writer sleeps an hour once idle: replicas written during a test stay
 *       unsaved in RAM_DISK, the worst case the durability tests need deterministically.
 *   <li>the NameNode's LazyPersist file scrubber runs every 2 s, so a LazyPersist file that lost
 *       every replica is unlinked within a test, as it would be (every 5 min) on a real cluster.
 * </ul>
 */
public final class RamDiskCluster implements AutoCloseable {
  public static final long BLOCK_SIZE = 1 << 20;
  public static final long LOCKED_MEMORY = 64L << 20;
  public static final long RAM_DISK_CAPACITY = 32L << 20;

  private final MiniDFSCluster cluster;

  private RamDiskCluster(MiniDFSCluster cluster) {
    this.cluster = cluster;
  }

  public static Configuration configuration(long blockSize, long lockedMemory) {
    Configuration conf = MiniDfs.testConfiguration();
    conf.setLong("dfs.blocksize", blockSize);
    MiniClusterSettings.withCaching(conf, lockedMemory);
    conf.setInt("dfs.datanode.lazywriter.interval.sec", 3600);
    conf.setInt("dfs.namenode.lazypersist.file.scrub.interval.sec", 2);
    conf.setInt("dfs.namenode.safemode.min.datanodes", 1);
    return conf;
  }

  /** Starts a cluster of {@code dataNodes} DataNodes, each with RAM_DISK and DISK. */
  public static RamDiskCluster start(String name, int dataNodes) throws IOException {
    return start(name, dataNodes, BLOCK_SIZE, RAM_DISK_CAPACITY, LOCKED_MEMORY);
  }

  /** As {@link #start(String, int)} with other block size, RAM_DISK size and locked memory. */
  public static RamDiskCluster start(String name, int dataNodes, long blockSize,
      long ramDiskCapacity, long lockedMemory) throws IOException {
    NativeIO.POSIX.setCacheManipulator(new NativeIO.POSIX.NoMlockCacheManipulator());
    Configuration conf = configuration(blockSize, lockedMemory);
    File base = new File(System.getProperty("test.build.data", "target/test-data"),
        name + "-" + UUID.randomUUID());
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.getAbsolutePath());
    long[][] capacities = new long[dataNodes][];
    StorageType[][] types = new StorageType[dataNodes][];
    for (int i = 0; i < dataNodes; i++) {
      capacities[i] = new long[] {ramDiskCapacity, -1};
      types[i] = new StorageType[] {StorageType.RAM_DISK, StorageType.DISK};
    }
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, base)
        .numDataNodes(dataNodes)
        .storagesPerDatanode(2)
        .storageTypes(types)
        .storageCapacities(capacities)
        .build();
    cluster.waitActive();
    return new RamDiskCluster(cluster);
  }

  public MiniDFSCluster cluster() {
    return cluster;
  }

  public DistributedFileSystem fileSystem() throws IOException {
    return cluster.getFileSystem();
  }

  /** A configuration whose default file system is this cluster. */
  public Configuration clientConfiguration() {
    Configuration conf = new Configuration(cluster.getConfiguration(0));
    conf.set(FileSystem.FS_DEFAULT_NAME_KEY, cluster.getURI().toString());
    return conf;
  }

  @Override
  public void close() {
    cluster.shutdown(true);
  }
}
