package org.hpf.bench.systems;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.hpf.bench.DatasetGenerator.Dataset;

/**
 * {@code hdfs dfs -put -t THREADS} of the dataset's first N files, run by Hadoop's own
 * {@link FsShell}: what a user would run to upload a tree of small files in parallel, rather
 * than one file after another. Only its time is measured; the files it writes are plain files,
 * as the HDFS system's.
 */
public final class ShellPut {
  private ShellPut() {}

  /**
   * Uploads the first {@code n} files of {@code data} (whole batch directories) below
   * {@code dest}, which must not exist, with {@code threads} files at once; returns the
   * milliseconds it took.
   */
  public static long put(Configuration conf, Dataset data, int n, Path dest, int threads)
      throws IOException {
    if (n % data.batchSize() != 0 && n != data.members().size()) {
      throw new IllegalArgumentException(n + " files are not whole batches of "
          + data.batchSize());
    }
    FileSystem fs = dest.getFileSystem(conf);
    List<String> args = new ArrayList<>(List.of("-put", "-t", Integer.toString(threads)));
    int batches = (n + data.batchSize() - 1) / data.batchSize();
    for (int b = 0; b < batches; b++) {
      args.add(data.batchDir(b).toUri().toString());
    }
    args.add(fs.makeQualified(dest).toString());
    long start = System.nanoTime();
    if (!fs.mkdirs(dest)) {
      throw new IOException("cannot make " + dest);
    }
    int exit;
    try {
      exit = ToolRunner.run(new FsShell(conf), args.toArray(String[]::new));
    } catch (Exception e) {
      throw new IOException("hdfs dfs -put failed", e);
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    if (exit != 0) {
      throw new IOException("hdfs dfs -put -t " + threads + " exited with " + exit);
    }
    return millis;
  }
}
