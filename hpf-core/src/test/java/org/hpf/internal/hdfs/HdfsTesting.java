package org.hpf.internal.hdfs;

import org.hpf.WriteSettings;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.namenode.NameNodeRpcServer;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.read.HpfReader;

/** Sources, checks and cluster operations shared by the HDFS integration tests. */
final class HdfsTesting {
  private HdfsTesting() {}

  /**
   * Writes {@code count} local files of random content ({@code minSize..maxSize} bytes, half of
   * them compressible) under {@code dir}; returns name to bytes.
   */
  static Map<String, byte[]> writeSources(File dir, String prefix, int count, int minSize,
      int maxSize, long seed) throws IOException {
    Random random = new Random(seed);
    Map<String, byte[]> files = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      String name = prefix + "/d" + (i % 7) + "/f" + i + ".bin";
      byte[] bytes = new byte[minSize + random.nextInt(maxSize - minSize + 1)];
      if (i % 2 == 0) {
        random.nextBytes(bytes);
      } else {
        for (int j = 0; j < bytes.length; j++) {
          bytes[j] = (byte) ('a' + (j * 7 + i) % 5);
        }
      }
      File file = new File(dir, name);
      Files.createDirectories(file.getParentFile().toPath());
      Files.write(file.toPath(), bytes);
      files.put(name, bytes);
    }
    return files;
  }

  static Path local(File dir) {
    return new Path(dir.toURI());
  }

  /** Every expected member reads back byte for byte, and the archive has no other member. */
  static void assertArchive(Configuration conf, Path archive, Map<String, byte[]> expected)
      throws IOException {
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      for (Map.Entry<String, byte[]> e : expected.entrySet()) {
        assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
      }
      try (var names = reader.list()) {
        assertEquals(expected.size(), names.count(), "members of " + archive);
      }
    }
  }

  /** The part files of the archive's newest generation, by absolute path. */
  static List<Path> parts(FileSystem fs, Path archive) throws IOException {
    HdfsStorage storage = new HdfsStorage((org.apache.hadoop.hdfs.DistributedFileSystem) fs,
        archive, (short) 0, 0, WriteSettings.defaults());
    Manifest manifest = Manifest.read(storage, HpfReader.newestGeneration(storage));
    List<Path> parts = new ArrayList<>();
    for (Manifest.PartInfo part : manifest.parts()) {
      parts.add(storage.path(org.hpf.internal.format.ArchiveLayout.part(part.id())));
    }
    return parts;
  }

  /** For each block of each file: how many of its replicas are in RAM_DISK. */
  static List<Integer> ramDiskReplicasPerBlock(FileSystem fs, List<Path> files)
      throws IOException {
    List<Integer> counts = new ArrayList<>();
    for (Path file : files) {
      for (BlockLocation block : fs.getFileBlockLocations(file, 0, Long.MAX_VALUE)) {
        int ram = 0;
        for (StorageType type : block.getStorageTypes()) {
          if (type == StorageType.RAM_DISK) {
            ram++;
          }
        }
        counts.add(ram);
      }
    }
    return counts;
  }

  private static final Set<String> CLIENT_METHODS = clientMethods();

  /** Metric names of the client-protocol calls, as the RPC server's detailed metrics name them. */
  private static Set<String> clientMethods() {
    Set<String> names = new HashSet<>();
    for (Method method : ClientProtocol.class.getMethods()) {
      String name = method.getName();
      names.add("Overall" + Character.toUpperCase(name.charAt(0)) + name.substring(1)
          + "NumOps");
    }
    return names;
  }

  /**
   * Calls the NameNode has served so far on its client protocol (ClientProtocol: what a client
   * asks; the DataNodes' heartbeats and reports use other methods), from the RPC server's
   * per-method metrics, once they have settled: a handler records a call in the metrics after it
   * has answered it, so a count taken right after a call may miss it. Waits until two counts
   * 300 ms apart agree.
   */
  static long clientRpcs(MiniDFSCluster cluster) throws InterruptedException {
    return settled(() -> clientRpcsNow(cluster));
  }

  /** A count once two readings of it 300 ms apart agree. */
  private static long settled(java.util.function.LongSupplier count)
      throws InterruptedException {
    long last = count.getAsLong();
    while (true) {
      Thread.sleep(300);
      long now = count.getAsLong();
      if (now == last) {
        return now;
      }
      last = now;
    }
  }

  /**
   * Block reads the DataNodes have served, once their metrics have settled: a DataNode counts
   * a read after it has sent the bytes, so a count taken right after a read may miss it.
   */
  static long settledBlockReads(MiniDFSCluster cluster) throws InterruptedException {
    return settled(() -> blockReads(cluster));
  }

  private static long clientRpcsNow(MiniDFSCluster cluster) {
    NameNodeRpcServer rpc = (NameNodeRpcServer) cluster.getNameNodeRpc();
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    rpc.getClientRpcServer().getRpcDetailedMetrics().getOverallRpcProcessingRates()
        .snapshot(collector.addRecord("rpc"), true);
    long calls = 0;
    for (MetricsRecord record : collector.getRecords()) {
      for (AbstractMetric metric : record.metrics()) {
        if (CLIENT_METHODS.contains(metric.name())) {
          calls += metric.value().longValue();
        }
      }
    }
    return calls;
  }

  /** Block reads the DataNodes have served, from their metrics. */
  static long blockReads(MiniDFSCluster cluster) {
    long reads = 0;
    for (DataNode dn : cluster.getDataNodes()) {
      MetricsCollectorImpl collector = new MetricsCollectorImpl();
      DefaultMetricsSystem.instance().getSource(dn.getMetrics().name())
          .getMetrics(collector, true);
      for (MetricsRecord record : collector.getRecords()) {
        for (AbstractMetric metric : record.metrics()) {
          if (metric.name().equals("ReadBlockOpNumOps")) {
            reads += metric.value().longValue();
          }
        }
      }
    }
    return reads;
  }

  /** Every client-protocol method the NameNode has counted, for messages. */
  static Map<String, Long> clientRpcsByMethod(MiniDFSCluster cluster) {
    NameNodeRpcServer rpc = (NameNodeRpcServer) cluster.getNameNodeRpc();
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    rpc.getClientRpcServer().getRpcDetailedMetrics().getOverallRpcProcessingRates()
        .snapshot(collector.addRecord("rpc"), true);
    Map<String, Long> calls = new TreeMap<>();
    for (MetricsRecord record : collector.getRecords()) {
      for (AbstractMetric metric : record.metrics()) {
        if (CLIENT_METHODS.contains(metric.name())) {
          calls.put(metric.name(), metric.value().longValue());
        }
      }
    }
    return calls;
  }

  /**
   * Restarts DataNodes {@code indexes}: all are stopped, then restarted; with
   * {@code emptyRamDisk} their RAM_DISK volumes (storage 0) are emptied in between, as a tmpfs is
   * by a reboot of the node (without, this is a restart of the DataNode process, which a tmpfs
   * survives). Then waits until the cluster is active and has every DataNode's block report.
   */
  static void restartDataNodes(MiniDFSCluster cluster, boolean emptyRamDisk, int... indexes)
      throws IOException {
    List<MiniDFSCluster.DataNodeProperties> stopped = new ArrayList<>();
    List<File> ramDisks = new ArrayList<>();
    for (int index : indexes) {
      ramDisks.add(cluster.getInstanceStorageDir(index, 0));
    }
    List<String> names = new ArrayList<>();
    for (int index : indexes) {
      names.add(cluster.getDataNodes().get(index).getDatanodeId().getXferAddr());
    }
    for (String name : names) {
      stopped.add(cluster.stopDataNode(name));
    }
    for (File ramDisk : emptyRamDisk ? ramDisks : List.<File>of()) {
      if (!FileUtil.fullyDeleteContents(ramDisk)) {
        throw new IOException("could not empty " + ramDisk);
      }
    }
    for (MiniDFSCluster.DataNodeProperties node : stopped) {
      cluster.restartDataNode(node, true);
    }
    cluster.waitActive();
    cluster.triggerBlockReports();
  }

  /** Polls {@code condition} every 100 ms for up to {@code seconds}; false on timeout. */
  static boolean waitFor(BooleanSupplier condition, int seconds) throws InterruptedException {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    while (System.nanoTime() < deadline) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.sleep(100);
    }
    return condition.getAsBoolean();
  }
}
