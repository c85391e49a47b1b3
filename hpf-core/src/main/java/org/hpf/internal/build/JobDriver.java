package org.hpf.internal.build;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.hpf.ProgressListener;
import org.hpf.SourceException;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.hdfs.HdfsReport;
import org.hpf.internal.io.UploadBuffers;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.SourceLinks;
import org.hpf.internal.write.StagedChange;
import org.hpf.internal.write.StagedPlan;
import org.hpf.internal.write.WriterOptions;
import org.hpf.mapreduce.ArchiveJobException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds an archive from directories already on a cluster file system with a MapReduce job,
 * the job {@code hadoop archive} runs for HAR (docs/CLUSTER.md):
 *
 * <ol>
 *   <li>the driver locks the archive, walks the sources once (streaming them into a listing
 *       file next to the archive, cut into splits; duplicate names across roots, and for an
 *       append names the archive has, fail here, before anything is written);
 *   <li>map tasks merge their split's files into parts with ids of their own
 *       ({@link MergeMapper}): in their work directories, or, on an object store, where the
 *       archive's parts are;
 *   <li>the job's committer publishes every committed task's members as one generation, the
 *       index built in bounded memory ({@link StagedCommitter});
 *   <li>the driver cleans up and releases the lock; a failed job leaves the archive as it was
 *       (a failed create leaves none).
 * </ol>
 *
 * <p>{@link org.hpf.mapreduce.ArchiveJob} is its public face and {@code hadoop jar} tool.
 */
public final class JobDriver {
  private static final Logger LOG = LoggerFactory.getLogger(JobDriver.class);

  /**
   * What the job did.
   *
   * @param warnings what failed after the job's commit point: the archive holds the generation
   *     all the same
   */
  public record Result(Path archive, String jobId, Manifest manifest, long files, long bytes,
      int maps, long listingMillis, long jobMillis, long totalMillis, HdfsReport hdfs,
      SourceLinks links, List<String> warnings) {

    Result withWarnings(List<String> all) {
      return new Result(archive, jobId, manifest, files, bytes, maps, listingMillis, jobMillis,
          totalMillis, hdfs, links, List.copyOf(all));
    }

    /** This result with {@code other} as what it did with HDFS features. */
    public Result withHdfs(HdfsReport other) {
      return new Result(archive, jobId, manifest, files, bytes, maps, listingMillis, jobMillis,
          totalMillis, other, links, warnings);
    }
  }

  private JobDriver() {}

  /** Creates {@code archive} from the files below the {@code sources} directories. */
  public static Result create(Configuration conf, List<Path> sources, Path archive,
      WriterOptions options) throws IOException {
    return run(conf, sources, archive, false, options, job -> {});
  }

  /** Adds the files below the {@code sources} directories to {@code archive}. */
  public static Result append(Configuration conf, List<Path> sources, Path archive,
      WriterOptions options) throws IOException {
    return run(conf, sources, archive, true, options, job -> {});
  }

  /**
   * Runs the job. Once its commit has published the generation, the call succeeds: what fails
   * after that (the job's own report, cleanup, the lock's release) becomes a warning.
   *
   * @param customize changes the job before it is submitted (tests)
   */
  public static Result run(Configuration conf, List<Path> sources, Path archive, boolean append,
      WriterOptions options, Consumer<Job> customize) throws IOException {
    long start = System.nanoTime();
    FileSystem archiveFs = archive.getFileSystem(conf);
    Path target = archiveFs.makeQualified(archive);
    List<Path> roots = checkSources(conf, sources, target);
    StagedChange change = append ? StagedChange.append(conf, target, options)
        : StagedChange.create(conf, target, options);
    List<String> warnings = new ArrayList<>();
    // Set where the driver stopped waiting and killed the job: its commit may still be running.
    AtomicBoolean killed = new AtomicBoolean();
    Result result;
    try {
      result = build(conf, change, roots, target, append, options, customize, warnings,
          start, killed);
    } catch (LostJob e) {
      change.abandon();
      throw e;
    } catch (IOException | RuntimeException | Error e) {
      cleanUpAfterFailure(conf, change, e, killed.get());
      throw e;
    }
    try {
      change.close();
    } catch (IOException | RuntimeException e) {
      warn(warnings, "generation " + result.manifest().generation() + " is committed, but "
          + "releasing the archive's lock failed (hpf recover --break-lock removes it): " + e);
    }
    warnings.addAll(change.warnings());
    return result.withWarnings(warnings);
  }

  private static Result build(Configuration conf, StagedChange change, List<Path> roots,
      Path target, boolean append, WriterOptions options, Consumer<Job> customize,
      List<String> warnings, long start, AtomicBoolean killed) throws IOException {
    ProgressListener progress = options.settings().progress();
    long baseFiles = change.plan().creates() ? 0 : fileCount(conf, target); // the lock holds it
    Path staging = change.stagingDirectory();
    progress.phase("listing");
    Configuration jobConf = new Configuration(conf);
    Listing listing = list(jobConf, change, roots);
    List<SourceSplit> splits = listing.splits();
    StagedChange.Survey survey = listing.survey();
    StagedPlan plan = listing.plan();
    long listed = System.nanoTime();
    progress.started(survey.files(), survey.bytes());
    progress.phase("merging");

    Job job = Job.getInstance(jobConf, (append ? "hpf append " : "hpf create ") + target);
    configure(job);
    configureTasks(job.getConfiguration(), listing, target, staging, options,
        change.partsInPlace());
    collectTokens(job, roots, target);
    LocalJobWork local = LocalJobWork.configure(job.getConfiguration(),
        options.settings().scratchDirectory());
    IOException failed = null;
    try {
      customize.accept(job);
      runToCompletion(job, staging, progress, killed);
    } catch (IOException e) {
      failed = e; // the job may have committed before it failed: the archive says
    } finally {
      if (local != null && !local.remove()) {
        warn(warnings, "could not remove all of the job's local directory "
            + local.directory() + " (its owner's alone)");
      }
    }
    long ran = System.nanoTime();
    progress.phase("committing");
    Manifest manifest = published(change, target, failed, warnings);
    long expected = baseFiles + survey.files();
    if (manifest.generation() != plan.header().baseGeneration() + 1
        || manifest.fileCount() != expected) {
      throw new ArchiveJobException("job " + job.getJobID() + " ended and generation "
          + manifest.generation() + " of " + target + " holds " + manifest.fileCount()
          + " files where the job's would hold " + expected + " in generation "
          + (plan.header().baseGeneration() + 1));
    }
    if (failed != null) {
      warn(warnings, "job " + job.getJobID() + " reported a failure after its commit "
          + "published generation " + manifest.generation() + " (" + manifest.fileCount()
          + " files): " + failed.getMessage());
    }
    return new Result(target, job.getJobID().toString(), manifest, survey.files(),
        survey.bytes(), splits.size(), (listed - start) / 1_000_000,
        (ran - listed) / 1_000_000, (System.nanoTime() - start) / 1_000_000,
        change.hdfsReport(), survey.links(), List.of());
  }

  /**
   * The generation the job's commit published, read back from the archive (the driver's
   * cleanup after it may fail: a warning); if none was, the job's failure. A failed job's
   * commit may still be running ({@code killJob()} returning does not stop it): the archive is
   * read again once the job may commit no more ({@link StagedChange#revoke}), so that a commit
   * published meanwhile is reported as the success it is.
   */
  static Manifest published(StagedChange change, Path archive, IOException failed,
      List<String> warnings) throws IOException {
    Manifest manifest = readBack(change, failed, warnings);
    if (manifest == null && failed != null) {
      try {
        change.revoke();
      } catch (IOException | RuntimeException e) {
        failed.addSuppressed(e);
        throw failed;
      }
      manifest = readBack(change, failed, warnings);
    }
    if (manifest != null) {
      return manifest;
    }
    if (failed != null) {
      throw failed;
    }
    throw new ArchiveJobException("the job succeeded but committed no generation of "
        + archive);
  }

  /**
   * The generation the change's commit published, or null; a failure to read it is the call's
   * when the job succeeded, else added to the job's {@code failed}.
   */
  private static Manifest readBack(StagedChange change, IOException failed,
      List<String> warnings) throws IOException {
    try {
      return change.finish();
    } catch (IOException | RuntimeException e) {
      if (change.committed() != null) {
        warn(warnings, "generation " + change.committed().generation() + " is committed, but "
            + "the cleanup after it failed: " + e);
        return change.committed();
      }
      if (failed == null) {
        throw e;
      }
      failed.addSuppressed(e);
      return null;
    }
  }

  /**
   * After a change failed: first takes from the job its right to commit, so that a commit still
   * running cannot publish what is deleted next; then closes the change, which removes the
   * staged work and releases the lock. Where the right cannot be taken, nothing is deleted: the
   * change is left as a driver that died leaves it, locked, for recovery. What fails is added to
   * {@code failure}.
   *
   * <p>On an object store a commit past its check of that right decides only at its manifest's
   * create. A job that ended has no commit running, and the parts its tasks wrote in place are
   * deleted by id, so the archive stays as it was. A job the driver {@code killed} may still be
   * committing: nothing it may name is deleted before that name is taken, so an append's close
   * commits the base again as the next generation (fencing the job off) and only then collects
   * the parts. A create's parts are deleted by id in either case: its close's removal marker
   * then takes generation 1's name whatever the directory holds, so a commit that adopted them
   * before cannot create that manifest.
   */
  static void cleanUpAfterFailure(Configuration conf, StagedChange change, Throwable failure,
      boolean killed) {
    try {
      change.revoke();
    } catch (IOException | RuntimeException revokeFailed) {
      failure.addSuppressed(revokeFailed);
      change.abandon();
      return;
    }
    try {
      if (change.partsInPlace() && change.committed() == null
          && (change.plan().creates() || !killed)) {
        change.deleteUncommittedParts(SealedAttempts.parts(conf, change.stagingDirectory()));
      }
    } catch (IOException | RuntimeException cleanupFailed) {
      failure.addSuppressed(cleanupFailed);
    }
    try {
      change.close();
    } catch (IOException | RuntimeException closeFailed) {
      failure.addSuppressed(closeFailed);
    }
  }

  private static void warn(List<String> warnings, String warning) {
    LOG.warn(warning);
    warnings.add(warning);
  }

  /** Members of the archive's newest generation. */
  private static long fileCount(Configuration conf, Path archive) throws IOException {
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      return reader.manifest().fileCount();
    }
  }

  /** The driver lost contact with a job that it could not kill: the job may still commit. */
  private static final class LostJob extends IOException {
    private static final long serialVersionUID = 1L;

    LostJob(Job job, IOException cause) {
      super("lost contact with job " + job.getJobID() + " and could not kill it (" + cause
          + "); it may still commit, so the archive stays locked with its staged work: once "
          + "the job has ended, hpf recover --break-lock finishes (the generation the job "
          + "committed, if any, stays)", cause);
    }
  }

  /** The sources, qualified: existing directories, none holding the archive or inside it. */
  private static List<Path> checkSources(Configuration conf, List<Path> sources, Path archive)
      throws IOException {
    if (sources.isEmpty()) {
      throw new IllegalArgumentException("no source directory given");
    }
    List<Path> roots = new ArrayList<>();
    for (Path source : sources) {
      FileSystem fs = source.getFileSystem(conf);
      FileStatus status;
      try {
        status = fs.getFileStatus(source);
      } catch (FileNotFoundException e) {
        throw new SourceException("source does not exist: " + source);
      }
      if (!status.isDirectory()) {
        throw new SourceException("source is not a directory: " + status.getPath()
            + " (the MapReduce build archives directories; add single files without "
            + "--mapreduce)");
      }
      Path root = status.getPath();
      if (within(archive, root)) {
        throw new SourceException("the archive " + archive + " is inside the source " + root
            + ": it would archive itself");
      }
      if (within(root, archive)) {
        throw new SourceException("the source " + root + " is inside the archive " + archive);
      }
      roots.add(root);
    }
    return roots;
  }

  /** True when {@code path} is {@code dir} or below it (both qualified). */
  private static boolean within(Path path, Path dir) {
    for (Path at = path; at != null; at = at.getParent()) {
      if (at.equals(dir)) {
        return true;
      }
    }
    return false;
  }

  /** What the driver's listing gave the job: its splits, the sources' survey, the plan. */
  record Listing(List<SourceSplit> splits, StagedChange.Survey survey, StagedPlan plan) {}

  /**
   * Walks the sources into the change's listing (a file in its staging directory), cut into
   * splits that it writes beside it; the change's plan then holds the listing's access classes
   * and part ids.
   */
  static Listing list(Configuration jobConf, StagedChange change, List<Path> roots)
      throws IOException {
    Path staging = change.stagingDirectory();
    StagedPlan staged = change.plan();
    List<SourceSplit> splits;
    StagedChange.Survey survey;
    StagedPlan plan;
    // The driver's upload buffers of the listing are in its scratch directory.
    FileSystem fs = UploadBuffers.fileSystem(staging, jobConf,
        change.options().settings().scratchDirectory());
    try (SourceListing listing = new SourceListing(jobConf, fs, new Path(staging, "sources"),
        jobConf.getLong(JobSettings.SPLIT_FILES, JobSettings.DEFAULT_SPLIT_FILES),
        jobConf.getLong(JobSettings.SPLIT_BYTES, JobSettings.DEFAULT_SPLIT_BYTES),
        jobConf.getInt(JobSettings.MAP_THREADS, JobSettings.DEFAULT_MAP_THREADS),
        staged.header().partSize(), staged.firstPartId(),
        change.partsInPlace() ? JobSettings.attemptSlots(jobConf) : 1)) {
      survey = change.survey(roots, source -> listing.add(source, change.accessId(source)));
      splits = listing.finish();
      // The tasks' ids of classes the listing met first mean what the plan says.
      plan = change.listed(listing.partIdLimit());
    }
    SourceListing.writeSplits(fs, new Path(staging, "splits"), splits);
    return new Listing(splits, survey, plan);
  }

  private static void configure(Job job) {
    if (job.getConfiguration().get("mapreduce.job.jar") == null) {
      job.setJarByClass(JobDriver.class); // the shaded jar under hadoop jar
    }
    job.setInputFormatClass(SourceInputFormat.class);
    job.setMapperClass(MergeMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputFormatClass(StagedOutputFormat.class);
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(NullWritable.class);
  }

  /** Sets what the job's tasks and committer read in their configuration. */
  static void configureTasks(Configuration conf, Listing listing, Path archive, Path staging,
      WriterOptions options, boolean partsInPlace) {
    listing.plan().store(conf);
    conf.set(JobSettings.ARCHIVE, archive.toString());
    conf.set(JobSettings.STAGING, staging.toString());
    conf.setLong(JobSettings.SURVEY_FILES, listing.survey().files());
    conf.setLong(JobSettings.SURVEY_BYTES, listing.survey().bytes());
    conf.setBoolean(JobSettings.PARTS_IN_PLACE, partsInPlace);
    conf.set(JobSettings.COMPRESSION, options.settings().compression().name().toLowerCase(
        java.util.Locale.ROOT));
    if (options.layout().replication() > 0) {
      conf.setInt(JobSettings.REPLICATION, options.layout().replication());
    }
  }

  /**
   * On a secure cluster, the tasks reach the sources and the archive with delegation tokens.
   * Submission collects one only for its staging directory's file system, and the job's input
   * and output formats name no paths that would collect the others.
   */
  private static void collectTokens(Job job, List<Path> roots, Path target) throws IOException {
    List<Path> paths = new ArrayList<>(roots);
    paths.add(target);
    TokenCache.obtainTokensForNamenodes(job.getCredentials(), paths.toArray(new Path[0]),
        job.getConfiguration());
  }

  /** Submits the job and waits, reporting merged bytes; fails with the first task's error. */
  private static void runToCompletion(Job job, Path staging, ProgressListener progress,
      AtomicBoolean killed) throws IOException {
    try {
      job.submit();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while submitting the job");
    } catch (ClassNotFoundException e) {
      throw new IOException(e);
    }
    boolean successful;
    // Every half second for the progress bar, or as often as the client's completion poll
    // interval asks when it is shorter (the local job runner's ends are known at once).
    long pollMillis = Math.max(1, Math.min(500,
        job.getConfiguration().getInt(Job.COMPLETION_POLL_INTERVAL_KEY, 500)));
    try {
      long reported = 0;
      while (!job.isComplete()) {
        Thread.sleep(pollMillis);
        reported = report(job, progress, reported);
      }
      report(job, progress, reported);
      successful = job.isSuccessful();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw stop(job, killed, new InterruptedIOException("interrupted; job " + job.getJobID()
          + " killed"));
    } catch (IOException e) {
      throw stop(job, killed, e); // lost contact with the job
    }
    if (!successful) {
      try {
        throw new ArchiveJobException("job " + job.getJobID() + " failed: "
            + JobFailure.describe(job, staging));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted");
      }
    }
  }

  /**
   * Kills a job the driver stops waiting for, so that it cannot commit later; a job it cannot
   * kill may still commit ({@link LostJob}).
   */
  private static IOException stop(Job job, AtomicBoolean killed, IOException e) {
    try {
      job.killJob();
      killed.set(true); // returning does not mean its commit has stopped
      return e;
    } catch (IOException | RuntimeException killFailed) {
      e.addSuppressed(killFailed);
      return new LostJob(job, e);
    }
  }

  private static long report(Job job, ProgressListener progress, long reported)
      throws IOException {
    var counters = job.getCounters();
    if (counters == null) {
      return reported;
    }
    long bytes = counters.findCounter(MergeMapper.Counter.BYTES_MERGED).getValue();
    if (bytes > reported) {
      progress.merged(bytes - reported);
    }
    return Math.max(bytes, reported);
  }
}
