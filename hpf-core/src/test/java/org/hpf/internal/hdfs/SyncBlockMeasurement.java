package org.hpf.internal.hdfs;

import java.io.File;
import java.nio.file.Files;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.testing.MiniDfs;

/**
 * What creating files with SYNC_BLOCK costs in write throughput on a MiniDFSCluster of 3
 * DataNodes (replication 3): writes {@code mib} MiB per run as part-sized files with and
 * without the flag, alternating, for two block sizes. Usage (from hpf-core, after
 * test-compile): {@code java -cp target/test-classes:target/classes:<test classpath>
 * org.hpf.internal.hdfs.SyncBlockMeasurement [mib] [rounds] [create]} ({@code create}: the hpf
 * create alone).
 */
public final class SyncBlockMeasurement {
  private static final int MIB = 1 << 20;

  private SyncBlockMeasurement() {}

  /**
   * hpf creates of {@code mib} MiB in 64 KiB files from HDFS sources: the part files are
   * created with SYNC_BLOCK, as every file hpf writes on HDFS.
   */
  private static void createThroughput(MiniDFSCluster cluster, DistributedFileSystem fs, int mib,
      int rounds) throws java.io.IOException {
    Configuration conf = new Configuration(cluster.getConfiguration(0));
    conf.set(org.apache.hadoop.fs.FileSystem.FS_DEFAULT_NAME_KEY, cluster.getURI().toString());
    Path sources = new Path("/measure/sources");
    byte[] file = new byte[64 * 1024];
    java.util.Random random = new java.util.Random(2);
    for (int i = 0; i < mib * 16; i++) {
      random.nextBytes(file);
      try (FSDataOutputStream out = fs.create(new Path(sources, "d" + i % 16 + "/f" + i))) {
        out.write(file);
      }
    }
    double seconds = 0;
    for (int round = 0; round < rounds + 1; round++) {
      Path archive = new Path("/measure/a" + round + ".hpf");
      long start = System.nanoTime();
      org.hpf.internal.write.ArchiveCreator.create(conf, archive, java.util.List.of(sources),
          org.hpf.internal.write.WriterOptions.builder().settings(s -> s.threads(2))
              .layout(l -> l.withPartSize(256L * MIB)).build());
      if (round > 0) {
        seconds += (System.nanoTime() - start) / 1e9;
      }
      fs.delete(archive, true);
    }
    System.out.printf(Locale.ROOT, "hpf create of %d MiB in 64 KiB files (parts of 256 MiB):"
        + " %.1f MiB/s%n", mib, mib * rounds / seconds);
  }

  public static void main(String[] args) throws Exception {
    int mib = args.length > 0 ? Integer.parseInt(args[0]) : 256;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    File base = Files.createTempDirectory(new File("target").toPath(), "sync-measure").toFile();
    Configuration conf = MiniDfs.testConfiguration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.getAbsolutePath());
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, base).numDataNodes(3).build();
    try {
      cluster.waitActive();
      DistributedFileSystem fs = cluster.getFileSystem();
      byte[] chunk = new byte[MIB];
      new java.util.Random(1).nextBytes(chunk);
      boolean createOnly = args.length > 2 && args[2].equals("create");
      for (long blockSize : createOnly ? new long[0] : new long[] {8L * MIB, 128L * MIB}) {
        double[] seconds = new double[2];
        for (int round = 0; round < rounds + 1; round++) {
          for (int sync = 0; sync < 2; sync++) {
            Path file = new Path("/measure/r" + round + "-s" + sync + "-b" + blockSize);
            var builder = sync == 1
                ? HadoopStorage.syncingEveryBlock(fs, file, (short) 3, blockSize)
                : fs.createFile(file).overwrite(false).recursive().replication((short) 3)
                    .blockSize(blockSize).bufferSize(64 * 1024);
            long start = System.nanoTime();
            try (FSDataOutputStream out = builder.build()) {
              for (int i = 0; i < mib; i++) {
                out.write(chunk);
              }
              out.hsync();
            }
            double took = (System.nanoTime() - start) / 1e9;
            if (round > 0) { // the first round warms up
              seconds[sync] += took;
            }
            fs.delete(file, false);
          }
        }
        System.out.printf(Locale.ROOT, "block %3d MiB: without SYNC_BLOCK %.1f MiB/s, with %.1f"
            + " MiB/s (%+.0f%% time)%n", blockSize / MIB, mib * rounds / seconds[0],
            mib * rounds / seconds[1], 100 * (seconds[1] / seconds[0] - 1));
      }
      createThroughput(cluster, fs, mib, rounds);
    } finally {
      cluster.shutdown(true);
    }
  }
}
