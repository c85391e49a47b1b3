package org.hpf.bench.experiments;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.bench.BenchCluster;

/**
 * A write and a read of the same data, repeated: each repetition deletes what the last one
 * wrote (untimed), times the upload (every file closed inside the timed region), then times
 * reading every byte back, and counts the bytes the DataNodes wrote meanwhile. The data of the
 * last repetition stays on the cluster for the caller to count or delete.
 */
record RoundTrip(List<Double> writeSeconds, List<Double> readSeconds, long bytes,
    List<Long> dataNodeBytesWritten) {

  /** What the timed regions do: write returns the bytes written, read the bytes read. */
  interface Transfer {
    long write() throws Exception;

    long read() throws Exception;
  }

  static RoundTrip run(BenchCluster cluster, Path target, int reps, Transfer transfer)
      throws Exception {
    FileSystem fs = cluster.fs();
    List<Double> writes = new ArrayList<>();
    List<Double> reads = new ArrayList<>();
    List<Long> dataNode = new ArrayList<>();
    long[] bytes = new long[2];
    for (int rep = 0; rep < reps; rep++) {
      fs.delete(target, true);
      long before = cluster.dataNodeBytesWritten();
      writes.add(Timing.seconds(() -> bytes[0] = transfer.write()));
      long after = cluster.dataNodeBytesWritten();
      dataNode.add(before < 0 ? -1 : after - before);
      reads.add(Timing.seconds(() -> bytes[1] = transfer.read()));
      if (bytes[1] != bytes[0]) {
        throw new IOException("read " + bytes[1] + " bytes of " + target + ", wrote "
            + bytes[0]);
      }
    }
    return new RoundTrip(writes, reads, bytes[0], dataNode);
  }

  /** Local files uploaded as plain HDFS files into {@code dir}, then read back. */
  static RoundTrip plain(BenchCluster cluster, List<java.nio.file.Path> files, Path dir,
      short replication, long blockSize, int reps) throws Exception {
    FileSystem fs = cluster.fs();
    return run(cluster, dir, reps, new Transfer() {
      @Override
      public long write() throws IOException {
        return Transfers.upload(fs, files, dir, replication, blockSize);
      }

      @Override
      public long read() throws IOException {
        return Transfers.download(fs, dir);
      }
    });
  }

  /** Local files (all in one directory) packed into one HPF archive, then every member read. */
  static RoundTrip packed(BenchCluster cluster, List<java.nio.file.Path> files, Path archive,
      short replication, long blockSize, int threads, int reps) throws Exception {
    FileSystem fs = cluster.fs();
    java.nio.file.Path root = files.get(0).getParent();
    // The read gives back the members' bytes, not the archive's (which adds an index).
    long members = LocalData.bytes(files);
    return run(cluster, archive, reps, new Transfer() {
      @Override
      public long write() throws IOException {
        Transfers.pack(cluster.conf(), root, archive, replication, blockSize, threads);
        return members;
      }

      @Override
      public long read() throws IOException {
        return Transfers.unpack(fs, archive);
      }
    });
  }

  double writeMedian() {
    return Timing.median(writeSeconds);
  }

  double readMedian() {
    return Timing.median(readSeconds);
  }

  /** The median of the DataNodes' bytes written per repetition, or -1 if not measurable. */
  long dataNodeBytesMedian() {
    return (long) Timing.median(dataNodeBytesWritten.stream().map(Long::doubleValue).toList());
  }

  /** Write and read throughput in MB/s (10^6 bytes, as the studies give them). */
  Map<String, Object> throughput() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("writeMBps", bytes / 1e6 / writeMedian());
    m.put("readMBps", bytes / 1e6 / readMedian());
    return m;
  }
}
