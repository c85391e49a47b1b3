package org.hpf.internal.hdfs;

import org.hpf.WriteSettings;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.metrics.DataNodeMetrics;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every block of a file hpf writes on HDFS reaches the DataNodes' disks when it is finalized
 * (created with SYNC_BLOCK), not only the block a last hsync covered: the cluster does not have
 * to set dfs.datanode.synconclose.
 */
@Tag("hdfs")
class PartSyncTest {
  private static final int BLOCK = 64 * 1024;
  private static final int BLOCKS = 4;

  /** The fsyncs the cluster's DataNodes made of block and checksum files so far. */
  private static long fsyncs(MiniDfs dfs) throws ReflectiveOperationException {
    var counter = DataNodeMetrics.class.getDeclaredField("fsyncCount");
    counter.setAccessible(true); // the DataNodes count fsyncs for their metrics only
    long sum = 0;
    for (DataNode node : dfs.cluster().getDataNodes()) {
      sum += ((MutableCounterLong) counter.get(node.getMetrics())).value();
    }
    return sum;
  }

  /** Writes {@link #BLOCKS} blocks to a part of {@code storage}, closes it, no hsync. */
  private static long fsyncsOfAPart(MiniDfs dfs, ArchiveStorage storage, boolean merged)
      throws IOException, ReflectiveOperationException {
    long before = fsyncs(dfs);
    storage.mkdirs("");
    try (ArchiveOutput out = merged ? storage.createMergedPart("part-000001", BLOCK)
        : storage.create("part-000002", BLOCK)) {
      out.stream().write(new byte[BLOCKS * BLOCK]);
    }
    return fsyncs(dfs) - before;
  }

  @Test
  void everyBlockOfAPartIsSyncedWhenItIsFinalized() throws Exception {
    MiniDfs dfs = MiniDfs.shared();
    DistributedFileSystem fs = dfs.fileSystem();
    Path root = new Path("/sync-" + System.nanoTime());
    HdfsStorage hdfs = new HdfsStorage(fs, new Path(root, "hdfs.hpf"), (short) 1, 0,
        WriteSettings.defaults());
    long merged = fsyncsOfAPart(dfs, hdfs, true);
    assertTrue(merged >= BLOCKS, "fsyncs of a merged part of " + BLOCKS + " blocks: " + merged);
    long compacted = fsyncsOfAPart(dfs, hdfs, false);
    assertTrue(compacted >= BLOCKS, "fsyncs of a part of " + BLOCKS + " blocks: " + compacted);
    HdfsStorage withPolicy = new HdfsStorage(fs, new Path(root, "policy.hpf"), (short) 1, 0,
        WriteSettings.builder().partStoragePolicy("HOT").build());
    long policy = fsyncsOfAPart(dfs, withPolicy, true);
    assertTrue(policy >= BLOCKS, "fsyncs of a part with a storage policy: " + policy);
    HadoopStorage plain = new HadoopStorage(fs, new Path(root, "plain.hpf"), (short) 1);
    long plainFsyncs = fsyncsOfAPart(dfs, plain, false);
    assertTrue(plainFsyncs >= BLOCKS, "fsyncs through a plain storage on HDFS: " + plainFsyncs);
  }
}
