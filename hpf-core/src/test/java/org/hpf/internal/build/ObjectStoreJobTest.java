package org.hpf.internal.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.S3AFileSystem;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ForwardingOutput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.ForwardingStorage;
import org.hpf.internal.read.ArchiveVerifier;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.StagedChange;
import org.hpf.internal.write.StagedMerge;
import org.hpf.internal.write.StagedPlan;
import org.hpf.internal.write.StoreCommits;
import org.hpf.internal.write.WriterOptions;
import org.hpf.fs.LocalJobs;
import org.hpf.mapreduce.ArchiveJobException;
import org.hpf.testing.BucketKeys;
import org.hpf.testing.DefaultUploadBuffers;
import org.hpf.minicluster.S3Server;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MapReduce build writing an archive on s3a://, against a real S3-protocol server (the local
 * job runner, sources on the local disk). There nothing is renamed: tasks write their parts in
 * place under ids of the slot they claimed, a task commits by creating a file that names its
 * attempt, and the job by the manifest's conditional create. A slot an attempt that died left
 * claimed is passed over and its part collected after the commit; of two attempts of a task only
 * the first to commit counts; a job that fails leaves the archive as it was, with none of its
 * parts.
 */
@Tag("s3")
class ObjectStoreJobTest {
  @TempDir static java.nio.file.Path tmp;
  private static S3Server server;
  private static FileSystem local;
  private static S3AFileSystem s3;

  @BeforeAll
  static void startServer() throws IOException {
    server = S3Server.shared();
    local = FileSystem.getLocal(new Configuration()).getRaw();
    s3 = (S3AFileSystem) server.bucketRoot().getFileSystem(server.configuration());
  }

  private static Configuration jobConf() {
    Configuration conf = LocalJobs.configure(new Configuration(server.configuration()));
    conf.setLong(JobSettings.SPLIT_FILES, 40); // several map tasks
    conf.setInt(JobSettings.MAP_THREADS, 2);
    return conf;
  }

  private static WriterOptions options() {
    return WriterOptions.builder().settings(s -> s.threads(2))
        .layout(l -> l.withPartSize(64 << 10)).build();
  }

  private static Path archive(TestInfo test) {
    return new Path(server.bucketRoot(), "jobs/" + test.getTestMethod().orElseThrow().getName()
        + ".hpf");
  }

  private static Path sources(String name) {
    return new Path(tmp.resolve(name).toUri());
  }

  @Test
  void createsAndAppendsWithoutARename(TestInfo test) throws IOException {
    Configuration conf = jobConf();
    Map<String, byte[]> files = new TreeMap<>(JobSources.write(local, sources("first"), "a",
        100, 11));
    Map<String, byte[]> more = JobSources.write(local, sources("second"), "b", 60, 12);
    Path archive = archive(test);
    long renames = counter("op_rename");

    JobDriver.Result created = JobDriver.create(conf, List.of(sources("first")), archive,
        options());
    assertThat(created.maps()).isGreaterThan(1);
    assertHoldsOnly(conf, archive, files, 1);
    JobDriver.Result appended = JobDriver.append(conf, List.of(sources("second")), archive,
        options());
    assertThat(appended.manifest().generation()).isEqualTo(2);
    files.putAll(more);
    assertHoldsOnly(conf, archive, files, 2);
    assertThat(counter("op_rename") - renames).as("renames").isZero();
  }

  /**
   * With S3A's default place for upload buffers, {@code ${hadoop.tmp.dir}/s3a} (made open to
   * all, its files too), the driver's listing, the tasks' parts and the job's commit are
   * buffered in private directories of the scratch directory instead: S3A never makes its own.
   */
  @Test
  void uploadsAreBufferedInPrivateDirectories(TestInfo test) throws IOException {
    java.nio.file.Path hadoopTmp = tmp.resolve("buffers").resolve("hadoop-user");
    Configuration conf = DefaultUploadBuffers.of(LocalJobs.configure(
        new Configuration(server.configuration())), hadoopTmp);
    conf.setLong(JobSettings.SPLIT_FILES, 40); // several map tasks
    Map<String, byte[]> files = JobSources.write(local, sources("buffered"), "u", 100, 14);
    // A bucket of its own: Hadoop's cached client of the shared one has the test buffers.
    Path archive = new Path(server.bucket("job-upload-buffers"), test.getTestMethod()
        .orElseThrow().getName() + ".hpf");

    JobDriver.Result created = JobDriver.create(conf, List.of(sources("buffered")), archive,
        WriterOptions.builder().settings(s -> s.threads(2)
            .scratchDirectory(tmp.resolve("buffers").resolve("scratch")))
            .layout(l -> l.withPartSize(64 << 10)).build());
    assertThat(created.maps()).isGreaterThan(1);
    JobSources.assertHolds(conf, archive, files);
    assertThat(hadoopTmp.resolve("s3a")).as("S3A's default buffer directory").doesNotExist();
  }

  /**
   * An attempt that died after claiming slot 0 of the first split and publishing a part there:
   * the job's attempt takes slot 1, and the commit raises the part id floor above every id the
   * listing set aside, so the dead attempt's part is garbage, collected once the job commits.
   */
  @Test
  void aSlotLeftByADeadAttemptIsPassedOverAndItsPartCollected(TestInfo test)
      throws IOException {
    Configuration conf = jobConf();
    Map<String, byte[]> files = JobSources.write(local, sources("slots"), "s", 60, 13);
    Path archive = archive(test);
    String[] deadPart = new String[1];
    JobDriver.Result result = JobDriver.run(conf, List.of(sources("slots")), archive, false,
        options(), job -> deadAttempt(job.getConfiguration(), deadPart));

    Manifest manifest = result.manifest();
    int dead = ArchiveLayout.partId(deadPart[0]);
    assertThat(manifest.part(dead)).as("the dead attempt's part").isNull();
    assertThat(manifest.partIdFloor()).isGreaterThan(dead);
    assertThat(manifest.parts()).as("parts of slot 1 of the first split")
        .anyMatch(part -> part.id() > dead);
    assertHoldsOnly(conf, archive, files, 1);
  }

  /** Claims slot 0 of split 0 for an attempt that never ran, and publishes a part in it. */
  private static void deadAttempt(Configuration job, String[] part) {
    try {
      Path staging = JobSettings.staging(job);
      ArchiveStorage storage = HdfsIntegration.storage(s3, staging);
      try (var out = storage.create(AttemptSlots.name(0, 0), 0)) {
        out.stream().write("attempt_1_0001_m_000000_0".getBytes(StandardCharsets.UTF_8));
      }
      List<SourceSplit> splits = SourceListing.readSplits(s3, new Path(staging, "splits"));
      SourceSplit first = splits.stream().filter(s -> s.index() == 0).findFirst().orElseThrow();
      int slots = JobSettings.attemptSlots(job);
      assertThat(slots).isGreaterThan(1);
      part[0] = ArchiveLayout.part(first.partIds(0, slots).first());
      try (FSDataOutputStream out = s3.create(new Path(JobSettings.archive(job), part[0]))) {
        out.write(new byte[100]);
      }
      assertThat(StagedPlan.load(job).partIdLimit())
          .isGreaterThanOrEqualTo(first.partIds(slots - 1, slots).limit());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Two attempts of one task (a speculative twin, or a zombie the framework gave up on) both
   * finish: they claimed different slots, so neither wrote over the other's parts; the first to
   * commit the task wins, the other's commit fails, and the job publishes exactly the winner's
   * parts, while the loser's are collected once the job has committed. Cleanup meant for a job
   * that failed, run after the commit, takes none of them.
   */
  @Test
  void ofTwoAttemptsOfATaskOnlyTheFirstToCommitCounts(TestInfo test) throws Exception {
    Configuration conf = jobConf();
    conf.setLong(JobSettings.SPLIT_FILES, 1000); // one split
    Map<String, byte[]> files = JobSources.write(local, sources("twins"), "t", 30, 16);
    Path archive = archive(test);
    StagedChange change = StagedChange.create(conf, archive, options());
    try {
      Configuration job = new Configuration(conf);
      JobDriver.Listing listing = JobDriver.list(job, change, List.of(sources("twins")));
      JobDriver.configureTasks(job, listing, s3.makeQualified(archive),
          change.stagingDirectory(), options(), change.partsInPlace());
      SourceSplit split = listing.splits().get(0);
      TaskAttemptID zombie = new TaskAttemptID("twins", 1, TaskType.MAP, 0, 0);
      TaskAttemptID winner = new TaskAttemptID("twins", 1, TaskType.MAP, 0, 1);
      Set<Integer> zombieParts = runAttempt(job, zombie, split).parts().keySet();
      Set<Integer> winnerParts = runAttempt(job, winner, split).parts().keySet();
      assertThat(zombieParts).isNotEmpty().doesNotContainAnyElementsOf(winnerParts);

      StagedCommitter committer = new StagedCommitter();
      JobContextImpl context = new JobContextImpl(job, zombie.getJobID());
      committer.setupJob(context);
      committer.commitTask(new TaskAttemptContextImpl(job, winner));
      IOException lost = assertThrows(IOException.class,
          () -> committer.commitTask(new TaskAttemptContextImpl(job, zombie)));
      assertThat(lost).hasMessageContaining("was committed by another attempt");
      committer.commitJob(context);
      // A driver whose cleanup runs as for a failed job, though the job had committed, deletes
      // none of the generation's parts.
      change.deleteUncommittedParts(winnerParts);
      Manifest manifest = change.finish();
      assertThat(manifest.parts()).extracting(Manifest.PartInfo::id)
          .containsExactlyInAnyOrderElementsOf(winnerParts);
    } finally {
      change.close();
    }
    assertHoldsOnly(conf, archive, files, 1);
  }

  /**
   * A task commit that the store took but whose reply was lost (its close threw after the
   * object was published) stands: the attempt reads its commit back instead of failing for it.
   * The commit of an attempt whose create never reached the store still fails, and so does
   * that of a later attempt, which the store refuses: another one had committed first.
   */
  @Test
  void aTaskCommitWhoseReplyWasLostStands() throws IOException {
    ArchiveStorage tasks = HdfsIntegration.storage(s3, new Path(server.bucketRoot(),
        "jobs/lost-reply/tasks"));
    TaskAttemptID first = new TaskAttemptID("lost", 1, TaskType.MAP, 0, 0);
    TaskAttemptID second = new TaskAttemptID("lost", 1, TaskType.MAP, 0, 1);
    IOException unsent = assertThrows(IOException.class,
        () -> StagedCommitter.nameWinner(new LostReplies(tasks, false), "task-000000", first));
    assertThat(unsent).hasMessage("not sent");
    assertThat(tasks.exists("task-000000")).isFalse();

    StagedCommitter.nameWinner(new LostReplies(tasks, true), "task-000000", first);
    assertThat(StagedCommitter.winner(tasks, "task-000000")).hasToString(first.toString());

    assertThrows(FileAlreadyExistsException.class,
        () -> StagedCommitter.nameWinner(new LostReplies(tasks, true), "task-000000", second));
    assertThat(StagedCommitter.winner(tasks, "task-000000")).hasToString(first.toString());
  }

  /**
   * A store whose creates fail: before anything is sent ({@code reachStore} false), or after
   * the object's close, whose reply is lost.
   */
  private static final class LostReplies extends ForwardingStorage {
    private final ArchiveStorage delegate;
    private final boolean reachStore;

    LostReplies(ArchiveStorage delegate, boolean reachStore) {
      super(delegate);
      this.delegate = delegate;
      this.reachStore = reachStore;
    }

    @Override
    public ArchiveOutput create(String name, long blockSize)
        throws IOException {
      if (!reachStore) {
        throw new IOException("not sent");
      }
      return new ForwardingOutput(delegate.create(name, blockSize)) {
        @Override
        public void close() throws IOException {
          super.close();
          throw new IOException("reply lost");
        }
      };
    }
  }

  /** Runs {@code attempt} of {@code split} as a map task does, and returns its seal. */
  private static ShareSeal runAttempt(Configuration job, TaskAttemptID attempt,
      SourceSplit split) throws Exception {
    AttemptOutput output = AttemptOutput.open(job, attempt, split);
    TaskAttemptContextImpl context = new TaskAttemptContextImpl(job, attempt);
    try (StagedMerge merge = output.merge();
        RecordReader<ListedSource, NullWritable> sources =
            new SourceInputFormat().createRecordReader(split, context)) {
      sources.initialize(split, context);
      while (sources.nextKeyValue()) {
        ListedSource source = sources.getCurrentKey();
        merge.add(source.toSource(job), source.access());
      }
      return output.seal(merge.finish());
    }
  }

  /**
   * A source that changes while the job reads it fails its task and so the job: an append leaves
   * the archive at its generation, holding what it held, and a create leaves nothing, even where
   * an attempt that died left a part; neither leaves a part, a staged file or a pending upload
   * behind.
   */
  @Test
  void aFailedJobLeavesTheArchiveAsItWas(TestInfo test) throws IOException {
    Configuration conf = jobConf();
    Map<String, byte[]> files = JobSources.write(local, sources("kept"), "k", 50, 14);
    Path archive = archive(test);
    JobDriver.create(conf, List.of(sources("kept")), archive, options());
    SortedSet<String> before = BucketKeys.files(s3, archive);

    Path changing = sources("changing");
    JobSources.write(local, changing, "c", 120, 15);
    Path victim = new Path(changing, "c/d1/s1/f-1.bin");
    ArchiveJobException failed = assertThrows(ArchiveJobException.class,
        () -> JobDriver.run(conf, List.of(changing), archive, true, options(),
            job -> overwrite(victim)));
    assertThat(failed).hasMessageContaining("changed while it was read");
    // Its tasks may outlive the kill: generation 2 is 1 again, with a part id floor above all
    // the ids the job set aside, so that no later writer picks the name of a late task's part.
    assertHoldsOnly(conf, archive, files, 2);
    SortedSet<String> after = BucketKeys.files(s3, archive);
    assertThat(after.remove(Manifest.fileName(2))).isTrue();
    assertThat(after).isEqualTo(before);
    ArchiveStorage storage = HdfsIntegration.storage(s3, archive);
    Manifest base = Manifest.read(storage, 1);
    Manifest again = Manifest.read(storage, 2);
    assertThat(again.parts()).isEqualTo(base.parts());
    assertThat(again.partIdFloor()).isGreaterThan(base.partIdFloor());

    Path fresh = new Path(server.bucketRoot(), "jobs/failed-create.hpf");
    Path another = new Path(changing, "c/d2/s2/f-2.bin");
    String[] deadPart = new String[1];
    assertThrows(ArchiveJobException.class,
        () -> JobDriver.run(conf, List.of(changing), fresh, false, options(), job -> {
          deadAttempt(job.getConfiguration(), deadPart); // killed outright: it cleans nothing
          overwrite(another);
        }));
    assertThat(deadPart[0]).isNotNull();
    assertThat(s3.exists(fresh)).as("a failed create leaves no object, not even the part of "
        + "an attempt that died").isFalse();
    assertThat(s3.listMultipartUploads(s3.pathToKey(fresh) + "/")).isEmpty();
  }

  private static void overwrite(Path file) {
    try (FSDataOutputStream out = local.create(file, true)) {
      out.write(new byte[5]); // after listing, before the tasks read it
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The archive is at {@code generation}, holds exactly {@code files} and verifies; its keys are
   * the kept generations' files and nothing else (no staging, lock or stray part).
   */
  private static void assertHoldsOnly(Configuration conf, Path archive,
      Map<String, byte[]> files, long generation) throws IOException {
    JobSources.assertHolds(conf, archive, files);
    ArchiveStorage storage = HdfsIntegration.storage(s3, archive);
    try (HpfReader reader = HpfReader.open(s3, archive, ReaderOptions.defaults())) {
      assertThat(reader.manifest().generation()).isEqualTo(generation);
    }
    ArchiveVerifier.Report report = ArchiveVerifier.verify(storage, ReaderOptions.defaults(),
        bytes -> {});
    assertThat(report.ok()).as(report.problems().toString()).isTrue();
    SortedSet<String> named = new TreeSet<>();
    for (long kept = Math.max(1, generation - 1); kept <= generation; kept++) {
      named.add(Manifest.fileName(kept));
      named.addAll(StoreCommits.filesOf(storage, kept));
    }
    assertThat(BucketKeys.files(s3, archive)).isEqualTo(named);
    assertThat(s3.listMultipartUploads(s3.pathToKey(archive) + "/")).isEmpty();
  }

  private static long counter(String name) {
    return IOStatisticsSupport.snapshotIOStatistics(
        IOStatisticsSupport.retrieveIOStatistics(s3)).counters().getOrDefault(name, 0L);
  }
}
