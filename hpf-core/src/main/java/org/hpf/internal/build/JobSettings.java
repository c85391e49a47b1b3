package org.hpf.internal.build;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.hpf.Compression;
import org.hpf.internal.io.UploadBuffers;
import org.hpf.internal.write.WriterOptions;
import org.hpf.internal.write.spill.Scratch;

/**
 * The {@link Configuration} keys of the archive job: what a user may set (with {@code -D} or in
 * a site file) and what the driver passes to its tasks. docs/CLUSTER.md lists them.
 */
public final class JobSettings {
  /** Threads each map task merges with: reading small files is latency-bound. */
  public static final String MAP_THREADS = "hpf.mapreduce.map.threads";
  public static final int DEFAULT_MAP_THREADS = 4;
  /** A map task's share ends after this many files... */
  public static final String SPLIT_FILES = "hpf.mapreduce.split.files";
  public static final long DEFAULT_SPLIT_FILES = 20_000;
  /** ...or this many bytes, whichever comes first. */
  public static final String SPLIT_BYTES = "hpf.mapreduce.split.bytes";
  public static final long DEFAULT_SPLIT_BYTES = 256L << 20;
  /** auto, lz4 or none (see {@link Compression}). */
  public static final String COMPRESSION = "hpf.mapreduce.compression";
  /** Part size of a new archive, in bytes. */
  public static final String PART_SIZE = "hpf.mapreduce.part.size";
  /** Replication of the archive's files (0: the file system's default). */
  public static final String REPLICATION = "hpf.mapreduce.replication";
  /**
   * Where tasks write their parts in place (an object store): how many attempts of one split
   * may write parts. Default: the attempts a map task gets times the ApplicationMaster's, and
   * two for speculative twins.
   */
  public static final String ATTEMPT_SLOTS = "hpf.mapreduce.attempt.slots";

  // Set by the driver for its tasks and committer.
  static final String ARCHIVE = "hpf.mapreduce.archive";
  static final String STAGING = "hpf.mapreduce.staging";
  static final String SPLITS = "hpf.mapreduce.splits";
  /** What the driver's walk of the sources counted, for the job's commit to check against. */
  static final String SURVEY_FILES = "hpf.mapreduce.survey.files";
  static final String SURVEY_BYTES = "hpf.mapreduce.survey.bytes";
  /**
   * On the local job runner, the job commit's scratch directory, inside the job's own private
   * one ({@link LocalJobWork}); elsewhere unset (a path of the driver's host).
   */
  static final String SCRATCH = "hpf.mapreduce.scratch.dir";
  /** True where tasks write their parts into the archive directory, not their work's. */
  static final String PARTS_IN_PLACE = "hpf.mapreduce.parts-in-place";

  private JobSettings() {}

  /**
   * The file system a task or the job's commit writes {@code path} through: on s3a:// one whose
   * upload buffers are private, in the job's scratch directory on the local runner, else in the
   * task's host's default one ({@link UploadBuffers}).
   */
  static FileSystem fileSystemToWrite(Path path, Configuration conf) throws IOException {
    String scratch = conf.getTrimmed(SCRATCH);
    return UploadBuffers.fileSystem(path, conf, scratch != null ? java.nio.file.Path.of(scratch)
        : Scratch.defaultDirectory());
  }

  /** Writer options from {@code conf}: what the tasks and the commit need. */
  public static WriterOptions writerOptions(Configuration conf) {
    WriterOptions.Builder options = WriterOptions.builder().settings(s -> s
        .threads(conf.getInt(MAP_THREADS, DEFAULT_MAP_THREADS))
        .compression(Compression.valueOf(
            conf.getTrimmed(COMPRESSION, "auto").toUpperCase(java.util.Locale.ROOT))));
    String scratch = conf.getTrimmed(SCRATCH);
    if (scratch != null) {
      options.settings(s -> s.scratchDirectory(java.nio.file.Path.of(scratch)));
    }
    long partSize = conf.getLongBytes(PART_SIZE, conf.getLongBytes(
        org.hpf.ArchiveSettings.PART_SIZE_KEY, 0));
    if (partSize > 0) {
      options.layout(l -> l.withPartSize(partSize));
    }
    int replication = conf.getInt(REPLICATION, conf.getInt(
        org.hpf.ArchiveSettings.REPLICATION_KEY, 0));
    if (replication > 0) {
      options.layout(l -> l.withReplication(replication));
    }
    return options.build();
  }

  /** How many attempts of a split may write parts in place (see {@link #ATTEMPT_SLOTS}). */
  static int attemptSlots(Configuration conf) {
    int slots = conf.getInt(ATTEMPT_SLOTS, conf.getInt(MRJobConfig.MAP_MAX_ATTEMPTS, 4)
        * conf.getInt(MRJobConfig.MR_AM_MAX_ATTEMPTS, MRJobConfig.DEFAULT_MR_AM_MAX_ATTEMPTS)
        + 2);
    if (slots < 1) {
      throw new IllegalArgumentException(ATTEMPT_SLOTS + " must be at least 1, not " + slots);
    }
    return slots;
  }

  static boolean partsInPlace(Configuration conf) {
    return conf.getBoolean(PARTS_IN_PLACE, false);
  }

  static Path archive(Configuration conf) {
    return new Path(required(conf, ARCHIVE));
  }

  static Path staging(Configuration conf) {
    return new Path(required(conf, STAGING));
  }

  private static String required(Configuration conf, String key) {
    String value = conf.get(key);
    if (value == null) {
      throw new IllegalStateException("the job configuration has no " + key
          + ": was it submitted by hpf's archive job?");
    }
    return value;
  }
}
