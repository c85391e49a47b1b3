package org.hpf.bench.systems;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.bench.DatasetGenerator.Dataset;
import org.hpf.bench.DatasetGenerator.Member;

/**
 * Native HDFS: one HDFS file per small file, uploaded one after the other as {@code hdfs dfs
 * -put} does by default (one thread), with the run's replication and block size, below {@code
 * <dest>/batch-NNNNN/<name>}. A get is open + read to the end: one NameNode RPC for the block
 * locations, then the DataNode.
 *
 * <p>The datasets of every size are prefixes of the largest, so one upload serves them all:
 * {@link #create} uploads the files not uploaded yet and reports the time at which the N-th
 * file was done, i.e. the time an upload of exactly those N files took. HAR archives the first
 * N/batch batch directories of this upload.
 */
public final class HdfsFiles implements BenchSystem {
  private final FileSystem fs;
  private final short replication;
  private final long blockSize;
  private Dataset dataset;
  private Path uploadedTo;
  private int uploaded;
  private long uploadNanos;
  /** Cumulative upload time after the first N files. */
  private final TreeMap<Integer, Long> checkpoints = new TreeMap<>();

  /** Files uploaded at once: 1, as a user uploading one by one, unless set otherwise. */
  private final int threads;

  public HdfsFiles(FileSystem fs, short replication, long blockSize) {
    this(fs, replication, blockSize, 1);
  }

  /** Uploads with {@code threads} files at once (for suites that time only the reads). */
  public HdfsFiles(FileSystem fs, short replication, long blockSize, int threads) {
    this.fs = fs;
    this.replication = replication;
    this.blockSize = blockSize;
    this.threads = threads;
  }

  @Override
  public String name() {
    return "HDFS";
  }

  @Override
  public Creation create(Dataset data, int n, Path dest) throws IOException {
    if (uploadedTo != null && (!uploadedTo.equals(dest) || data != dataset)) {
      throw new IllegalStateException("one upload per run: " + uploadedTo + ", not " + dest);
    }
    if (n < uploaded) {
      throw new IllegalStateException("sizes must grow: " + n + " after " + uploaded);
    }
    dataset = data;
    uploadedTo = dest;
    List<Member> members = data.first(n).subList(uploaded, n);
    long start = System.nanoTime();
    if (threads == 1) {
      byte[] buffer = new byte[64 << 10];
      for (Member m : members) {
        upload(fs, data.fileOf(m), new Path(dest, pathOf(m)), replication, blockSize, buffer);
      }
    } else {
      uploadInParallel(data, members, dest);
    }
    uploadNanos += System.nanoTime() - start;
    uploaded = n;
    long millis = uploadNanos / 1_000_000;
    checkpoints.put(n, millis);
    return new Creation(millis, Map.of("threads", threads));
  }

  private void uploadInParallel(Dataset data, List<Member> members, Path dest)
      throws IOException {
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(threads);
    try {
      List<java.util.concurrent.Future<Long>> uploads = new java.util.ArrayList<>();
      for (int from = 0; from < members.size(); from += 100) {
        List<Member> slice = members.subList(from, Math.min(members.size(), from + 100));
        uploads.add(pool.submit(() -> {
          byte[] buffer = new byte[64 << 10];
          long bytes = 0;
          for (Member m : slice) {
            bytes += upload(fs, data.fileOf(m), new Path(dest, pathOf(m)), replication,
                blockSize, buffer);
          }
          return bytes;
        }));
      }
      for (java.util.concurrent.Future<Long> upload : uploads) {
        upload.get();
      }
    } catch (java.util.concurrent.ExecutionException e) {
      com.google.common.base.Throwables.throwIfInstanceOf(e.getCause(), IOException.class);
      throw new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while uploading");
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Copies a local file to a new HDFS file with this replication and block size, as {@code hdfs
   * dfs -put} does; returns when the file is closed (its last block complete on the NameNode).
   */
  public static long upload(FileSystem fs, java.nio.file.Path local, Path dest,
      short replication, long blockSize, byte[] buffer) throws IOException {
    long bytes = 0;
    try (InputStream in = Files.newInputStream(local);
        FSDataOutputStream out = fs.create(dest, false, 64 << 10, replication, blockSize)) {
      int read;
      while ((read = in.read(buffer)) > 0) {
        out.write(buffer, 0, read);
        bytes += read;
      }
    }
    return bytes;
  }

  /** The upload's path of a member: below its batch directory. */
  static String pathOf(Member m) {
    return String.format(java.util.Locale.ROOT, "batch-%05d/%s", m.batch(), m.name());
  }

  /** The path of a member by name, below the upload's root. */
  public String pathOf(String name) {
    Member m = dataset.member(name);
    if (m == null) {
      return name; // not in the dataset: a path that does not exist
    }
    return pathOf(m);
  }

  Dataset dataset() {
    return dataset;
  }

  /** Where the upload is, or null before the first create. */
  Path uploadedTo() {
    return uploadedTo;
  }

  /** How long the upload of the first {@code n} files took, or null if it did not stop there. */
  Long uploadMillis(int n) {
    return checkpoints.get(n);
  }

  @Override
  public Reader open(FileSystem client, Path dest) {
    return name -> {
      try (FSDataInputStream in = client.open(new Path(dest, pathOf(name)))) {
        return in.readAllBytes();
      }
    };
  }
}
