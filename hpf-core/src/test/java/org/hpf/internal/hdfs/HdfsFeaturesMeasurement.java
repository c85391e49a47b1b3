package org.hpf.internal.hdfs;

import org.hpf.WriteSettings;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.CreateResult;
import org.hpf.internal.write.WriterOptions;

/**
 * The figures of docs/HDFS.md, measured in one run on a MiniDFSCluster of 3 DataNodes with
 * RAM_DISK and DISK volumes ({@link RamDiskCluster}): create time with and without LazyPersist,
 * and get latency (p50/p99) with and without cache pinning next to native HDFS open+read of the
 * same files. Usage (from hpf-core, after test-compile):
 * {@code java -cp target/test-classes:target/classes:<test classpath>
 * org.hpf.internal.hdfs.HdfsFeaturesMeasurement [files] [gets]}.
 */
public final class HdfsFeaturesMeasurement {
  /** The default pool setting: the archive owner's pool. */
  private static final String DEFAULT_POOL = WriteSettings.defaults().cachePool();

  private static final long MIB = 1 << 20;

  private HdfsFeaturesMeasurement() {}

  public static void main(String[] args) throws Exception {
    int fileCount = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
    int gets = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    File work = Files.createTempDirectory("hpf-hdfs-measure").toFile();
    Map<String, byte[]> files = HdfsTesting.writeSources(new File(work, "src"), "m",
        fileCount, 1024, 32 * 1024, 42);
    long bytes = files.values().stream().mapToLong(b -> b.length).sum();
    List<String> names = new ArrayList<>(files.keySet());
    try (RamDiskCluster cluster = RamDiskCluster.start("measure", 3, 16 * MIB, 512 * MIB,
        1024 * MIB)) {
      DistributedFileSystem fs = cluster.fileSystem();
      Configuration conf = cluster.clientConfiguration();
      Path sources = HdfsTesting.local(new File(work, "src"));
      System.out.printf(Locale.ROOT, "%d files, %.1f MiB, replication 3, dfs.blocksize 16 MiB,"
          + " part size 64 MiB; %d cores, load average %.1f at start; Java %s%n", fileCount,
          bytes / (double) MIB, Runtime.getRuntime().availableProcessors(),
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
          System.getProperty("java.version"));

      // Create: alternate plain and LazyPersist, 5 runs each after a warm-up pair, archive
      // deleted after each run.
      WriterOptions.Builder base = WriterOptions.builder().settings(s -> s.threads(2))
          .layout(l -> l.withPartSize(64 * MIB));
      long[] plain = new long[5];
      long[] lazy = new long[5];
      String lazyReport = null;
      for (int run = 0; run <= plain.length; run++) {
        for (boolean lazyPersist : new boolean[] {false, true}) {
          Path archive = new Path("/measure/create-" + run + "-" + lazyPersist + ".hpf");
          String policy = lazyPersist ? WriteSettings.LAZY_PERSIST : null;
          WriterOptions options = base.settings(s -> s.partStoragePolicy(policy)
              .pinIndex(false)).build();
          long start = System.nanoTime();
          CreateResult result = ArchiveCreator.create(conf, archive, List.of(sources), options);
          long millis = (System.nanoTime() - start) / 1_000_000;
          if (run > 0) { // run 0 warms up the JVM and the page cache
            (lazyPersist ? lazy : plain)[run - 1] = millis;
          }
          if (lazyPersist) {
            lazyReport = result.hdfs().describe();
          }
          fs.delete(archive, true);
        }
      }
      System.out.println("create without LazyPersist, ms: " + Arrays.toString(plain)
          + " median " + median(plain));
      System.out.println("create with LazyPersist, ms:    " + Arrays.toString(lazy)
          + " median " + median(lazy) + " (" + lazyReport + ")");

      // Native HDFS: the same files as individual files.
      long start = System.nanoTime();
      for (Map.Entry<String, byte[]> file : files.entrySet()) {
        try (FSDataOutputStream out = fs.create(new Path("/native/" + file.getKey()))) {
          out.write(file.getValue());
        }
      }
      System.out.println("native HDFS put of the same files, ms: "
          + (System.nanoTime() - start) / 1_000_000);

      Path archive = new Path("/measure/reads.hpf");
      ArchiveCreator.create(conf, archive, List.of(sources),
          base.settings(s -> s.pinIndex(false)).build());
      CachePinning.unpin(fs, archive, DEFAULT_POOL);
      try (HpfReader reader = HpfReader.open(fs, archive,
          ReaderOptions.defaults().withOpenAllFiles(true))) {
        measure("hpf get, index not pinned", names, gets, reader::get, cluster);
        HdfsReport.Pinning pinning = CachePinning.pin(fs, archive, WriteSettings.defaults());
        long waitStart = System.nanoTime();
        CacheStatus status;
        do {
          Thread.sleep(200);
          status = CachePinning.status(fs, archive, DEFAULT_POOL);
        } while (!status.fullyCached() && System.nanoTime() - waitStart < 60_000_000_000L);
        System.out.printf(Locale.ROOT, "pinned %d files, %d bytes; cached after %d ms: %s%n",
            pinning.filesPinned(), pinning.bytesPinned(),
            (System.nanoTime() - waitStart) / 1_000_000, status.describe());
        measure("hpf get, index pinned", names, gets, reader::get, cluster);
      }
      measure("native HDFS open+read+close", names, gets, name -> {
        Path path = new Path("/native/" + name);
        try (FSDataInputStream in = fs.open(path)) {
          byte[] content = new byte[files.get(name).length];
          in.readFully(0, content);
          return content;
        }
      }, cluster);
    } finally {
      org.apache.hadoop.fs.FileUtil.fullyDelete(work);
    }
  }

  private interface Get {
    byte[] get(String name) throws IOException;
  }

  private static void measure(String label, List<String> names, int gets, Get get,
      RamDiskCluster cluster) throws IOException, InterruptedException {
    Random random = new Random(1);
    for (int i = 0; i < Math.min(gets, 2000); i++) {
      get.get(names.get(random.nextInt(names.size())));
    }
    long[] nanos = new long[gets];
    long rpcsBefore = HdfsTesting.clientRpcs(cluster.cluster());
    for (int i = 0; i < gets; i++) {
      String name = names.get(random.nextInt(names.size()));
      long start = System.nanoTime();
      get.get(name);
      nanos[i] = System.nanoTime() - start;
    }
    long rpcs = HdfsTesting.clientRpcs(cluster.cluster()) - rpcsBefore;
    Arrays.sort(nanos);
    System.out.printf(Locale.ROOT, "%s: p50 %.3f ms, p99 %.3f ms, mean %.3f ms over %d gets;"
        + " NameNode RPCs per get %.2f%n", label, nanos[gets / 2] / 1e6,
        nanos[(int) (gets * 0.99)] / 1e6, Arrays.stream(nanos).average().orElse(0) / 1e6, gets,
        rpcs / (double) gets);
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
