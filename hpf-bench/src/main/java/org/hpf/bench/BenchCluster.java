package org.hpf.bench;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.io.nativeio.NativeIO;
import org.apache.hadoop.security.UserGroupInformation;
import org.hpf.minicluster.MiniClusterSettings;

/**
 * The file system the benchmark runs against: an in-process MiniDFSCluster (one NameNode and
 * some DataNodes on the loopback interface, storage under the work directory) or an existing
 * cluster named by its URI. Every system writes with the same replication and block size, which
 * this class puts in the client configuration.
 */
public final class BenchCluster implements Closeable {
  /** The daemons this run started, or null for a cluster named by its URI. */
  private final ClusterDaemons daemons;
  private final URI uri;
  private final Configuration conf;
  private final FileSystem fs;

  private BenchCluster(ClusterDaemons daemons, URI uri, Configuration conf) throws IOException {
    this.daemons = daemons;
    this.uri = uri;
    this.conf = conf;
    this.fs = FileSystem.get(uri, conf);
  }

  /** Locked memory per DataNode: room for the cache directives of every archive of a run. */
  static final long LOCKED_MEMORY = 512L << 20;

  /**
   * Starts a MiniDFSCluster with {@code dataNodes} DataNodes, with the small-file settings of
   * hpf's tests and demo ({@link MiniClusterSettings}) and locked memory for centralized caching,
   * so that HPF's index files are pinned as on a configured cluster (mlock is skipped: there is
   * no native library here, and the blocks are in the page cache anyway). The NameNode's
   * minimum block size is 16 bytes, which NNThroughputBenchmark's remote mode requires.
   */
  public static BenchCluster embedded(File storage, int dataNodes, short replication,
      long blockSize) throws IOException {
    NativeIO.POSIX.setCacheManipulator(new NativeIO.POSIX.NoMlockCacheManipulator());
    Configuration conf = MiniClusterSettings.withCaching(
        MiniClusterSettings.forSmallFiles(new Configuration()), LOCKED_MEMORY);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 16);
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, storage.getAbsolutePath());
    conf.set("hadoop.tmp.dir", new File(storage, "tmp").getAbsolutePath());
    sameForAll(conf, replication, blockSize);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, storage)
        .numDataNodes(dataNodes)
        .build();
    try {
      cluster.waitActive();
      Configuration client = new Configuration(cluster.getConfiguration(0));
      FileSystem.setDefaultUri(client, cluster.getURI());
      sameForAll(client, replication, blockSize);
      return new BenchCluster(new InProcessDaemons(cluster), cluster.getURI(), client);
    } catch (IOException | RuntimeException e) {
      cluster.shutdown(true);
      throw e;
    }
  }

  /**
   * The same cluster as {@link #embedded}, with its NameNode and DataNodes in a child JVM
   * ({@link ChildProcessDaemons}), as on a real cluster; stopped when this is closed.
   */
  public static BenchCluster external(File storage, int dataNodes, short replication,
      long blockSize, java.io.PrintStream log) throws IOException {
    ChildProcessDaemons.Started started =
        ChildProcessDaemons.start(storage, dataNodes, replication, blockSize, log);
    try {
      Configuration client = new Configuration(started.conf());
      sameForAll(client, replication, blockSize);
      return new BenchCluster(started.daemons(), FileSystem.getDefaultUri(client), client);
    } catch (IOException | RuntimeException e) {
      started.daemons().close();
      throw e;
    }
  }

  /** Where a run's HDFS daemons run: started by the run, or an existing cluster. */
  public enum Mode {
    /** NameNode and DataNodes in the benchmark's JVM (the default: quickest to start). */
    EMBEDDED,
    /** NameNode and DataNodes in a child JVM, as on a real cluster. */
    EXTERNAL
  }

  /**
   * The cluster at {@code fs}, or, when it is null, one started in {@code mode} with its
   * storage in {@code work/dfs}; says which on {@code log}.
   */
  public static BenchCluster connectOrStart(URI fs, Mode mode, File work, int dataNodes,
      short replication, long blockSize, java.io.PrintStream log) throws IOException {
    if (fs != null) {
      log.println("using " + fs);
      return remote(fs, new Configuration(), replication, blockSize);
    }
    return start(mode, new File(work, "dfs"), dataNodes, replication, blockSize, log);
  }

  /** A cluster started in {@code mode} with its storage in {@code storage}. */
  public static BenchCluster start(Mode mode, File storage, int dataNodes, short replication,
      long blockSize, java.io.PrintStream log) throws IOException {
    if (mode == Mode.EXTERNAL) {
      return external(storage, dataNodes, replication, blockSize, log);
    }
    log.printf(java.util.Locale.ROOT, "starting a MiniDFSCluster with %d DataNodes%n",
        dataNodes);
    return embedded(storage, dataNodes, replication, blockSize);
  }

  /** An existing cluster (or any Hadoop file system) at {@code uri}. */
  public static BenchCluster remote(URI uri, Configuration base, short replication,
      long blockSize) throws IOException {
    Configuration conf = new Configuration(base);
    FileSystem.setDefaultUri(conf, uri);
    sameForAll(conf, replication, blockSize);
    return new BenchCluster(null, uri, conf);
  }

  private static void sameForAll(Configuration conf, short replication, long blockSize) {
    conf.setInt("dfs.replication", replication);
    conf.setLong("dfs.blocksize", blockSize);
    // HadoopArchives writes its part files with har.block.size (default 512 MiB).
    conf.setLong("har.block.size", blockSize);
    // HAR's metadata cache holds parsed indexes across HarFileSystem instances; cold reads
    // clear it, warm ones keep their HarFileSystem.
    conf.setInt("fs.har.metadatacache.entries", 10);
  }

  /** The daemons this run started, or null. */
  ClusterDaemons daemons() {
    return daemons;
  }

  /** The garbage collection log of daemons this run started in a JVM of their own, or null. */
  public java.io.File daemonsGcLog() {
    return daemons == null ? null : daemons.gcLog();
  }

  /** Whether this run started the daemons (in its JVM or a child), so it can read counters. */
  public boolean startedDaemons() {
    return daemons != null;
  }

  public URI uri() {
    return uri;
  }

  /** A copy of the client configuration. */
  public Configuration conf() {
    return new Configuration(conf);
  }

  /** The shared client (Hadoop's FileSystem cache). */
  public FileSystem fs() {
    return fs;
  }

  /**
   * The configuration for a cold client: its own DFS client context, so it reuses no
   * connection to a DataNode that an earlier client of this JVM left in the shared peer cache
   * (a client in a new process has none).
   */
  public Configuration coldConf() {
    Configuration cold = new Configuration(conf());
    cold.set("dfs.client.context", "hpf-bench-cold-" + java.util.UUID.randomUUID());
    return cold;
  }

  public Path path(String absolute) {
    return fs.makeQualified(new Path(absolute));
  }

  /**
   * Runs {@code action} as a fresh UserGroupInformation of the same user: every FileSystem it
   * gets from Hadoop's cache is new (the cache is keyed by UGI), so it starts with no client
   * and no cached metadata; all of them are closed afterwards. With {@link #coldConf()} it has
   * no connection either. This is a "cold" client.
   */
  public <T> T withColdClient(PrivilegedExceptionAction<T> action) throws IOException {
    UserGroupInformation ugi = UserGroupInformation.createRemoteUser(
        UserGroupInformation.getCurrentUser().getShortUserName());
    try {
      return ugi.doAs(action);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted");
    } finally {
      FileSystem.closeAllForUGI(ugi);
    }
  }

  /** What the NameNode holds for the tree at {@code path}: inodes and blocks, asked by RPC. */
  public NameNodeCount count(Path path) throws IOException {
    ContentSummary summary = fs.getContentSummary(path);
    long blocks = 0;
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(path, true);
    while (files.hasNext()) {
      blocks += files.next().getBlockLocations().length;
    }
    return new NameNodeCount(summary.getFileCount(), summary.getDirectoryCount(), blocks,
        summary.getLength(), summary.getSpaceConsumed());
  }

  /** The NameNode's own totals (files+directories, blocks), or null for a cluster by URI. */
  public long[] namesystemTotals() throws IOException {
    return daemons == null ? null : daemons.namesystemTotals();
  }

  /**
   * Bytes the DataNodes have written to their disks since they started, summed: the DataNodes'
   * own BytesWritten metric (every replica a pipeline stores counts on its DataNode), or -1 for
   * a cluster by URI. On a real cluster it is each DataNode's /jmx DataNodeActivity
   * BytesWritten.
   */
  public long dataNodeBytesWritten() throws IOException {
    return dataNodeCounter("bytesWritten");
  }

  /**
   * A counter of the DataNodes' activity metrics since they started, summed (such as
   * {@code bytesWritten}, {@code bytesRead}, {@code blocksRead}), or -1 for a cluster by URI.
   */
  public long dataNodeCounter(String field) throws IOException {
    return daemons == null ? -1 : daemons.dataNodeCounter(field);
  }

  /** DataNodes the NameNode reports live. */
  public int liveDataNodes() throws IOException {
    if (daemons != null) {
      return daemons.dataNodes();
    }
    if (fs instanceof org.apache.hadoop.hdfs.DistributedFileSystem dfs) {
      return dfs.getDataNodeStats(
          org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType.LIVE).length;
    }
    return -1;
  }

  /** Inodes and blocks of a tree, and its bytes (logical, and on disk with replication). */
  public record NameNodeCount(long files, long directories, long blocks, long length,
      long spaceConsumed) {
    public long objects() {
      return files + directories + blocks;
    }
  }

  @Override
  public void close() throws IOException {
    try {
      fs.close();
    } finally {
      if (daemons != null) {
        daemons.close();
      }
    }
  }
}
