package org.hpf.mapreduce;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.hpf.ArchiveSettings;
import org.hpf.WriteSettings;
import org.hpf.internal.build.JobDriver;
import org.hpf.internal.build.JobSettings;
import org.hpf.internal.write.SourceRemoval;

/**
 * Builds an archive from directories already on a cluster file system with a MapReduce job,
 * as {@code hadoop archive} does for HAR (docs/CLUSTER.md): the driver locks the archive and
 * lists the sources once (refusing duplicate names, and for an append names the archive has,
 * before anything is written); map tasks merge their share of the files into part files of
 * their own; the job's committer publishes every committed task's members as one generation.
 * A failed job leaves the archive as it was (a failed create leaves none).
 *
 * <p>Settings come from the job's {@link Configuration}: the keys below, and
 * {@link ArchiveSettings#PART_SIZE_KEY} and {@link ArchiveSettings#REPLICATION_KEY} for the
 * layout of a new archive.
 *
 * <p>Also a {@link Tool}: {@code hadoop jar hpf-core-<version>-hadoop.jar
 * org.hpf.mapreduce.ArchiveJob [generic options] [--append] [--delete-sources]
 * <source-dir>... <archive>}.
 */
public final class ArchiveJob extends Configured implements Tool {
  /** Threads each map task merges with (reading small files is latency-bound); default 4. */
  public static final String MAP_THREADS_KEY = JobSettings.MAP_THREADS;
  /** A map task's share ends after this many files (default 20,000)... */
  public static final String SPLIT_FILES_KEY = JobSettings.SPLIT_FILES;
  /** ...or this many bytes (default 256 MiB), whichever comes first. */
  public static final String SPLIT_BYTES_KEY = JobSettings.SPLIT_BYTES;
  /** {@code auto}, {@code lz4} or {@code none}, as {@link WriteSettings#COMPRESSION_KEY}. */
  public static final String COMPRESSION_KEY = JobSettings.COMPRESSION;

  /**
   * What the job did.
   *
   * @param archive the archive, qualified
   * @param jobId the MapReduce job's id
   * @param generation the generation the job committed
   * @param fileCount members in the archive after the job
   * @param filesAdded files the job added
   * @param bytesAdded bytes of the files it added
   * @param maps map tasks it ran
   * @param millis how long it took, listing and commit included
   * @param warnings what failed after the job's commit published the generation (a failure
   *     the job reported, cleanup, releasing the lock): the archive holds the generation all
   *     the same; empty if nothing did
   */
  public record Result(Path archive, String jobId, long generation, long fileCount,
      long filesAdded, long bytesAdded, int maps, long millis, List<String> warnings) {}

  /** A tool without a configuration yet ({@link ToolRunner} sets one). */
  public ArchiveJob() {}

  /**
   * A tool with a configuration.
   *
   * @param conf the configuration its jobs start from
   */
  public ArchiveJob(Configuration conf) {
    super(conf);
  }

  /**
   * Creates {@code archive} from the files below the {@code sources} directories.
   *
   * @param conf the job's configuration (cluster, keys above)
   * @param sources directories on a Hadoop file system
   * @param archive where to create the archive
   * @return what the job did
   * @throws org.hpf.ArchiveExistsException if {@code archive} exists and is not empty
   * @throws org.hpf.DuplicateNameException if two sources give one name
   * @throws org.hpf.SourceException if a source is missing or not a directory
   * @throws org.hpf.UnsupportedStoreException if {@code archive} is on a store where hpf cannot
   *     commit safely (one with neither an atomic rename nor a conditional create); nothing is
   *     written
   * @throws ArchiveJobException if the job fails (the message has the failing task's error);
   *     a job whose commit published the generation returns, with warnings, even if it
   *     reported a failure afterwards
   * @throws IOException if the file system fails
   */
  public static Result create(Configuration conf, List<Path> sources, Path archive)
      throws IOException {
    return run(conf, sources, archive, false);
  }

  /**
   * Adds the files below the {@code sources} directories to {@code archive}, refusing names it
   * has.
   *
   * @param conf the job's configuration
   * @param sources directories on a Hadoop file system
   * @param archive the archive
   * @return what the job did
   * @throws org.hpf.NameExistsException if the archive has some of the names
   * @throws org.hpf.ArchiveLockedException if a writer holds the archive
   * @throws org.hpf.UnsupportedStoreException if {@code archive} is on a store where hpf cannot
   *     commit safely (one with neither an atomic rename nor a conditional create); nothing is
   *     written
   * @throws ArchiveJobException if the job fails
   * @throws IOException if the file system fails
   */
  public static Result append(Configuration conf, List<Path> sources, Path archive)
      throws IOException {
    return run(conf, sources, archive, true);
  }

  private static Result run(Configuration conf, List<Path> sources, Path archive,
      boolean append) throws IOException {
    JobDriver.Result r = JobDriver.run(conf, sources, archive, append,
        JobSettings.writerOptions(conf), job -> {});
    return new Result(r.archive(), r.jobId(), r.manifest().generation(),
        r.manifest().fileCount(), r.files(), r.bytes(), r.maps(), r.totalMillis(),
        r.warnings());
  }

  /**
   * Runs the tool: {@code [--append] [--delete-sources] <source-dir>... <archive>}.
   *
   * @param args the arguments left by {@link ToolRunner}'s generic options
   * @return 0 on success, 1 when sources were kept, 2 for bad usage
   * @throws Exception if the job fails
   */
  @Override
  public int run(String[] args) throws Exception {
    boolean append = false;
    boolean deleteSources = false;
    List<Path> paths = new ArrayList<>();
    for (String arg : args) {
      if (arg.equals("--append")) {
        append = true;
      } else if (arg.equals("--delete-sources")) {
        deleteSources = true;
      } else if (arg.startsWith("-")) {
        System.err.println("unknown option " + arg);
        return usage(System.err);
      } else {
        paths.add(new Path(arg));
      }
    }
    if (paths.size() < 2) {
      return usage(System.err);
    }
    Configuration conf = getConf();
    List<Path> sources = paths.subList(0, paths.size() - 1);
    Result result = run(conf, sources, paths.get(paths.size() - 1), append);
    System.out.printf("%s generation %d of %s: %d files, %d bytes, %d map tasks, job %s in "
        + "%.1f s%n", append ? "appended" : "created", result.generation(), result.archive(),
        result.filesAdded(), result.bytesAdded(), result.maps(), result.jobId(),
        result.millis() / 1000.0);
    result.warnings().forEach(warning -> System.err.println("warning: " + warning));
    if (deleteSources) {
      SourceRemoval.Result removed = SourceRemoval.run(conf, result.archive(), sources,
          new SourceRemoval.Options(false, 16));
      System.out.printf("deleted %d source files and %d directories verified in the archive "
          + "(%d NameNode objects freed); kept %d%n", removed.filesDeleted(),
          removed.directoriesRemoved(), removed.namenodeObjectsFreed(), removed.filesKept());
      removed.firstKept().forEach(kept -> System.err.println("kept " + kept));
      return removed.filesKept() == 0 ? 0 : 1;
    }
    return 0;
  }

  private static int usage(PrintStream out) {
    out.println("usage: hadoop jar hpf-core-<version>-hadoop.jar " + ArchiveJob.class.getName()
        + " [generic options] [--append] [--delete-sources] <source-dir>... <archive>");
    return 2;
  }

  /**
   * Runs the tool with {@link ToolRunner}, and exits with its status.
   *
   * @param args generic options, then the tool's arguments
   * @throws Exception if the job fails
   */
  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new ArchiveJob(new Configuration()), args));
  }
}
