package org.hpf.bench.systems;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.HarFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.tools.HadoopArchives;
import org.apache.hadoop.util.ToolRunner;
import org.hpf.bench.DatasetGenerator.Dataset;

/**
 * HAR, made by Hadoop's own {@link HadoopArchives} tool (through ToolRunner, on MapReduce's
 * local job runner) from the files uploaded to HDFS first, as HAR requires. The upload is the
 * native-HDFS system's (its batch directories are HAR's sources, so member paths inside the
 * archive are {@code batch-NNNNN/<name>}), timed there and counted in HAR's creation time too
 * (as the HPF paper did). Reads go through {@link HarFileSystem}: opening one parses the archive's
 * {@code _masterindex} and {@code _index} (every entry) into memory.
 */
public final class HarArchive implements BenchSystem {
  static final String ARCHIVE = "data.har";

  private final Configuration conf;
  private final HdfsFiles uploads;
  private final short replication;

  /**
   * @param workDir local directory for the job runner's staging and scratch files
   */
  public HarArchive(Configuration base, HdfsFiles uploads, short replication, File workDir) {
    this.conf = org.hpf.bench.LocalRunner.configure(base, workDir, 0);
    this.uploads = uploads;
    this.replication = replication;
  }

  @Override
  public String name() {
    return "HAR";
  }

  /**
   * Archives the first {@code n} files the HDFS system uploaded (its first n/batch batch
   * directories); call after the HDFS system's create of {@code n} files.
   */
  @Override
  public Creation create(Dataset data, int n, Path dest) throws IOException {
    Long upload = uploads.uploadMillis(n);
    if (upload == null) {
      throw new IllegalStateException("HAR archives what the HDFS system uploaded, which has"
          + " not stopped at " + n + " files");
    }
    List<String> args = new ArrayList<>(List.of("-archiveName", ARCHIVE, "-p",
        uploads.uploadedTo().toString(), "-r", Short.toString(replication)));
    int batches = (n + data.batchSize() - 1) / data.batchSize();
    for (int b = 0; b < batches; b++) {
      args.add(data.batchDir(b).getFileName().toString());
    }
    args.add(dest.toString());
    long start = System.nanoTime();
    int code;
    try {
      code = ToolRunner.run(new Configuration(conf), new HadoopArchives(conf),
          args.toArray(new String[0]));
    } catch (Exception e) {
      throw new IOException("HadoopArchives failed: " + e, e);
    }
    long job = (System.nanoTime() - start) / 1_000_000;
    if (code != 0) {
      throw new IOException("HadoopArchives exited with " + code + " for " + args);
    }
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("uploadMillis", upload);
    details.put("jobMillis", job);
    return new Creation(upload + job, details);
  }

  /** The {@code har://} URI of an archive at {@code archive}, a qualified path. */
  public static URI harUri(Path archive) {
    URI under = archive.toUri();
    return URI.create("har://" + under.getScheme() + "-" + under.getHost()
        + (under.getPort() >= 0 ? ":" + under.getPort() : "") + under.getPath());
  }

  @Override
  public Path storeOf(Path dest) {
    return new Path(dest, ARCHIVE);
  }

  @Override
  public Reader open(FileSystem fs, Path dest) throws IOException {
    URI har = harUri(fs.makeQualified(storeOf(dest)));
    Configuration readConf = conf;
    HarFileSystem harFs = new HarFileSystem(fs);
    harFs.initialize(har, readConf);
    return new Reader() {
      @Override
      public byte[] get(String name) throws IOException {
        try (FSDataInputStream in = harFs.open(new Path(har.toString() + "/"
            + uploads.pathOf(name)))) {
          return in.readAllBytes();
        }
      }

      @Override
      public void close() {
        // Not harFs.close(): it would close the underlying client, which the caller owns.
      }
    };
  }

  /** Empties HarFileSystem's static cache of parsed indexes. */
  @Override
  public void clearGlobalCaches() {
    clearMetadataCache();
  }

  /**
   * Empties HarFileSystem's static cache of parsed indexes (reflection: it is private), so the
   * next open parses the archive's index again, as a new client's would.
   */
  public static void clearMetadataCache() {
    try {
      Field field = HarFileSystem.class.getDeclaredField("harMetaCache");
      field.setAccessible(true);
      Object cache = field.get(null);
      if (cache instanceof Map<?, ?> map) {
        map.clear();
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("cannot clear HarFileSystem's metadata cache: " + e, e);
    }
  }
}
