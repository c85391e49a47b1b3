package org.hpf.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.bench.DatasetGenerator.Dataset;

/**
 * The least a create of N files could take on this cluster: one read of every source (a walk
 * that reads each file once, as the create must) plus writing the archive's bytes as one plain
 * file of the same size, as {@code hdfs dfs -put} of one file would (create, write, close; the
 * archive's replication and block size). Both measured right after the create, in the same run,
 * with the sources as warm in the page cache as the create found them. Creation over this floor
 * is what the create's own work costs beyond moving its bytes.
 */
final class CreationFloor {
  private static final int BUFFER = 1 << 20;

  /** Floor of a create, in milliseconds: reading the sources, then writing the bytes. */
  record Floor(long readMillis, long writeMillis, long bytesRead, long bytesWritten) {
    long millis() {
      return readMillis + writeMillis;
    }

    /** The figures for the results' JSON, with {@code createMillis} over the floor. */
    Map<String, Object> details(long createMillis) {
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("floorMillis", millis());
      details.put("floorReadMillis", readMillis);
      details.put("floorWriteMillis", writeMillis);
      details.put("floorBytesRead", bytesRead);
      details.put("floorBytesWritten", bytesWritten);
      details.put("createOverFloor", millis() == 0 ? Double.NaN : (double) createMillis / millis());
      return details;
    }
  }

  private CreationFloor() {}

  /**
   * The floor of the create of the first {@code n} files of {@code data} into {@code archive}
   * (on {@code fs}); the plain file, of the replication and block size of the archive's largest
   * file (a part), is written to {@code scratch} and removed.
   */
  static Floor measure(FileSystem fs, Dataset data, int n, Path archive, Path scratch)
      throws IOException {
    long bytes = fs.getContentSummary(archive).getLength();
    FileStatus part = largestFile(fs, archive);
    long start = System.nanoTime();
    long read = readSources(data, n);
    long readNanos = System.nanoTime() - start;
    start = System.nanoTime();
    writePlainFile(fs, scratch, bytes, part.getReplication(), part.getBlockSize());
    long writeNanos = System.nanoTime() - start;
    fs.delete(scratch, false);
    return new Floor(readNanos / 1_000_000, writeNanos / 1_000_000, read, bytes);
  }

  private static FileStatus largestFile(FileSystem fs, Path archive) throws IOException {
    FileStatus largest = null;
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(archive, true);
    while (files.hasNext()) {
      FileStatus file = files.next();
      if (largest == null || file.getLen() > largest.getLen()) {
        largest = file;
      }
    }
    if (largest == null) {
      throw new IOException("no file in the archive " + archive);
    }
    return largest;
  }

  /** Walks the batch directories of the first {@code n} files and reads every file once. */
  private static long readSources(Dataset data, int n) throws IOException {
    int batches = (n + data.batchSize() - 1) / data.batchSize();
    byte[] buffer = new byte[BUFFER];
    long read = 0;
    for (int b = 0; b < batches; b++) {
      List<java.nio.file.Path> files;
      try (Stream<java.nio.file.Path> walk = Files.walk(data.batchDir(b))) {
        files = walk.filter(Files::isRegularFile).toList();
      }
      for (java.nio.file.Path file : files) {
        try (InputStream in = Files.newInputStream(file)) {
          for (int got; (got = in.read(buffer)) > 0; ) {
            read += got;
          }
        }
      }
    }
    return read;
  }

  private static void writePlainFile(FileSystem fs, Path file, long bytes, short replication,
      long blockSize) throws IOException {
    byte[] buffer = new byte[BUFFER];
    new Random(1).nextBytes(buffer);
    try (FSDataOutputStream out = fs.create(file, true, 64 * 1024, replication, blockSize)) {
      for (long left = bytes; left > 0; left -= BUFFER) {
        out.write(buffer, 0, (int) Math.min(BUFFER, left));
      }
    }
  }
}
