package org.hpf.internal.build;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.hpf.HpfException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.Source;
import org.hpf.internal.write.StagedChange;
import org.hpf.internal.write.StagedMerge;
import org.hpf.internal.write.StagedPlan;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committer's protocol with several attempts of one task writing the same part ids (a
 * speculative pair, a retry after a failure, a zombie that commits after the winner): only the
 * committed attempt's members count, each once, from the parts that attempt wrote; and a job
 * commit whose committed work does not match what the driver listed publishes nothing.
 */
class StagedCommitterTest {
  private static final int FILES = 60;
  private static final int SPLIT_FILES = 30;

  @TempDir java.nio.file.Path tmp;
  private final Configuration conf = new Configuration();
  private final StagedCommitter committer = new StagedCommitter();
  private FileSystem fs;
  private Map<String, byte[]> files;
  private Path sourceRoot;
  private Path archive;
  private StagedChange change;
  private Configuration job;
  private List<SourceSplit> splits;
  /** The sources of each split, in listing order. */
  private List<List<Source>> shares;

  @BeforeEach
  void setUp() throws IOException {
    fs = FileSystem.getLocal(conf).getRaw();
    sourceRoot = new Path(tmp.resolve("src").toUri());
    files = new TreeMap<>(JobSources.write(fs, sourceRoot, "t", FILES, 21));
  }

  @AfterEach
  void tearDown() throws IOException {
    if (change != null) {
      change.close();
    }
  }

  /** Opens a change of a new archive and lists the sources as the driver does. */
  private void start(String name) throws IOException {
    archive = new Path(tmp.resolve(name).toUri());
    change = StagedChange.create(conf, archive, options(2));
    job = new Configuration(conf);
    change.plan().store(job);
    job.set(JobSettings.ARCHIVE, fs.makeQualified(archive).toString());
    job.set(JobSettings.STAGING, change.stagingDirectory().toString());
    List<Source> sources = new ArrayList<>();
    StagedChange.Survey survey;
    try (SourceListing listing = new SourceListing(job, fs, new Path(change.stagingDirectory(),
        "sources"), SPLIT_FILES, Long.MAX_VALUE, 4, change.plan().header().partSize(),
        change.plan().firstPartId(), 1)) {
      survey = change.survey(List.of(sourceRoot), source -> {
        sources.add(source);
        listing.add(source, change.accessId(source));
      });
      splits = listing.finish();
    }
    SourceListing.writeSplits(fs, new Path(change.stagingDirectory(), "splits"), splits);
    job.setLong(JobSettings.SURVEY_FILES, survey.files());
    job.setLong(JobSettings.SURVEY_BYTES, survey.bytes());
    shares = new ArrayList<>();
    for (int i = 0; i < sources.size(); i += SPLIT_FILES) {
      shares.add(sources.subList(i, Math.min(sources.size(), i + SPLIT_FILES)));
    }
    assertEquals(shares.size(), splits.size());
    committer.setupJob(jobContext());
  }

  private static WriterOptions options(int threads) {
    return WriterOptions.builder().settings(s -> s.threads(threads))
        .layout(l -> l.withPartSize(32 << 10)).build();
  }

  private JobContextImpl jobContext() {
    return new JobContextImpl(job, new JobID("t", 1));
  }

  private TaskAttemptContextImpl context(TaskAttemptID attempt) {
    return new TaskAttemptContextImpl(job, attempt);
  }

  private static TaskAttemptID attempt(int task, int id) {
    return new TaskAttemptID("t", 1, TaskType.MAP, task, id);
  }

  /**
   * Merges the attempt's split as a map task does; {@code reversed} merges its sources in the
   * other order, so that two attempts write different parts under the same ids.
   */
  private void merge(TaskAttemptID attempt, int threads, boolean reversed) throws IOException {
    int task = attempt.getTaskID().getId();
    Path work = StagedCommitter.workPath(job, attempt);
    fs.mkdirs(work);
    List<Source> sources = new ArrayList<>(shares.get(task));
    if (reversed) {
      Collections.reverse(sources);
    }
    SourceSplit split = splits.get(task);
    ArchiveStorage storage = HdfsIntegration.storage(fs, work);
    try (StagedMerge merge = new StagedMerge(storage, storage, StagedPlan.load(job),
        options(threads),
        split.firstPartId(), split.partLimit())) {
      for (Source source : sources) {
        merge.add(source, 0);
      }
      ShareSeal.write(storage, storage, attempt, task, merge.finish());
    }
  }

  /** The parts in an attempt's work directory, by name, with their bytes. */
  private Map<String, byte[]> parts(TaskAttemptID attempt) throws IOException {
    Map<String, byte[]> parts = new TreeMap<>();
    Path work = StagedCommitter.workPath(job, attempt);
    for (var part : fs.listStatus(work, p -> p.getName().startsWith("part-"))) {
      parts.put(part.getPath().getName(), java.nio.file.Files.readAllBytes(
          java.nio.file.Path.of(part.getPath().toUri())));
    }
    return parts;
  }

  /** Commits the job and the change: the generation published. */
  private long commitAll() throws IOException {
    committer.commitJob(jobContext());
    return change.finish().generation();
  }

  /** The archive holds the sources once, in exactly the parts {@code expected}, byte for byte. */
  private void assertCommitted(Map<String, byte[]> expected) throws IOException {
    JobSources.assertHolds(conf, archive, files);
    List<String> entries = JobSources.entries(fs, archive);
    assertFalse(entries.contains(ArchiveLayout.STAGING), entries.toString());
    List<String> parts = entries.stream().filter(e -> e.startsWith("part-")).sorted().toList();
    assertEquals(new ArrayList<>(expected.keySet()), parts, "stray or missing parts");
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      assertEquals(parts.size(), reader.manifest().parts().size());
    }
    for (Map.Entry<String, byte[]> part : expected.entrySet()) {
      assertArrayEquals(part.getValue(), java.nio.file.Files.readAllBytes(
          java.nio.file.Path.of(new Path(archive, part.getKey()).toUri())), part.getKey());
    }
  }

  @Test
  void onlyTheCommittedAttemptCountsWhenAnotherAttemptDiedBeforeItsCommit() throws IOException {
    start("a.hpf");
    TaskAttemptID first = attempt(0, 0);
    TaskAttemptID second = attempt(0, 1);
    merge(first, 2, false);
    merge(second, 2, true);
    merge(attempt(1, 0), 2, false);
    assertTrue(committer.needsTaskCommit(context(first)));
    Map<String, byte[]> committed = new TreeMap<>(parts(second));
    committed.putAll(parts(attempt(1, 0)));
    committer.commitTask(context(second));
    committer.commitTask(context(attempt(1, 0)));
    committer.abortTask(context(first));
    assertFalse(fs.exists(StagedCommitter.workPath(job, first)));
    assertEquals(1, commitAll());
    assertCommitted(committed);
  }

  @Test
  void aZombieAttemptThatCommitsAfterTheWinnerFailsAndLeavesNothingBehind() throws IOException {
    start("zombie.hpf");
    TaskAttemptID winner = attempt(0, 1);
    TaskAttemptID zombie = attempt(0, 0); // lost by the framework, still running
    merge(winner, 1, false);
    merge(zombie, 4, true); // other parts, under the same and more ids
    merge(attempt(1, 0), 2, false);
    Map<String, byte[]> committed = new TreeMap<>(parts(winner));
    committed.putAll(parts(attempt(1, 0)));
    committer.commitTask(context(winner));
    committer.commitTask(context(attempt(1, 0)));

    assertThrows(IOException.class, () -> committer.commitTask(context(zombie)));
    assertEquals(1, commitAll());
    assertCommitted(committed);
  }

  @Test
  void aMoveInterruptedBetweenItsStepsThenAnotherCommitCannotPairTwoAttemptsWork()
      throws IOException {
    start("interrupted.hpf");
    TaskAttemptID winner = attempt(0, 1);
    TaskAttemptID zombie = attempt(0, 0);
    merge(winner, 2, false);
    merge(zombie, 2, true);
    merge(attempt(1, 0), 2, false);
    Map<String, byte[]> committed = new TreeMap<>(parts(winner));
    committed.putAll(parts(attempt(1, 0)));
    committer.commitTask(context(winner));
    committer.commitTask(context(attempt(1, 0)));
    // The zombie's commit is cut short: what it would move last is gone before it gets there.
    fs.delete(new Path(StagedCommitter.workPath(job, zombie), StagedMerge.JOURNAL), false);
    assertThrows(IOException.class, () -> committer.commitTask(context(zombie)));

    assertEquals(1, commitAll());
    assertCommitted(committed);
  }

  @Test
  void jobCommitRefusesAPartThatIsNotTheOneItsJournalWrote() throws IOException {
    start("foreign.hpf");
    TaskAttemptID winner = attempt(0, 1);
    TaskAttemptID other = attempt(0, 0);
    merge(winner, 2, false);
    merge(other, 2, true);
    merge(attempt(1, 0), 2, false);
    String name = parts(other).keySet().iterator().next();
    assertTrue(parts(winner).containsKey(name));
    committer.commitTask(context(winner));
    committer.commitTask(context(attempt(1, 0)));
    // Another attempt's part of the same id lies in the archive directory when the job commits.
    FileUtil.copy(fs, new Path(StagedCommitter.workPath(job, other), name), fs,
        new Path(archive, name), false, conf);

    assertRefused("not the part " + winner + " wrote");
  }

  @Test
  void jobCommitRefusesWorkThatDoesNotMatchTheSurvey() throws IOException {
    start("files.hpf");
    commitEveryTask();
    job.setLong(JobSettings.SURVEY_FILES, FILES + 1);
    assertRefused("driver's survey");
    change.close();

    start("bytes.hpf");
    commitEveryTask();
    job.setLong(JobSettings.SURVEY_BYTES, job.getLong(JobSettings.SURVEY_BYTES, 0) - 1);
    assertRefused("driver's survey");
    change.close();

    start("missing.hpf");
    merge(attempt(0, 0), 2, false);
    committer.commitTask(context(attempt(0, 0)));
    assertRefused("split 1: ");
    change.close();

    start("twice.hpf");
    commitEveryTask();
    Path tasks = StagedCommitter.tasks(job);
    FileUtil.copy(fs, new Path(tasks, "task-000000"), fs, new Path(tasks, "task-000002"), false,
        conf);
    assertRefused("split 0 has two committed journals");
    change.close();

    start("short.hpf");
    shares.set(1, shares.get(1).subList(1, SPLIT_FILES)); // a task that lost a file
    commitEveryTask();
    assertRefused("holds " + (SPLIT_FILES - 1) + " files");
  }

  private void commitEveryTask() throws IOException {
    for (int task = 0; task < splits.size(); task++) {
      merge(attempt(task, 0), 2, false);
      committer.commitTask(context(attempt(task, 0)));
    }
  }

  /** The job commit fails, saying why, and publishes nothing. */
  private void assertRefused(String why) throws IOException {
    HpfException refused = assertThrows(HpfException.class,
        () -> committer.commitJob(jobContext()));
    assertTrue(refused.getMessage().contains(why), refused.getMessage());
    Path manifests = new Path(archive, org.hpf.internal.format.Manifest.DIR);
    assertEquals(0, fs.listStatus(manifests, p -> p.getName().startsWith("manifest-")).length);
    assertNull(change.finish());
  }
}
