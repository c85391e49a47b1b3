package org.hpf.internal.build;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.hpf.ArchiveReader;
import org.hpf.DuplicateNameException;
import org.hpf.HpfArchive;
import org.hpf.MemberAccess;
import org.hpf.MemberIterator;
import org.hpf.MemberStatus;
import org.hpf.NameExistsException;
import org.hpf.SourceException;
import org.hpf.fs.LocalJobs;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.StagedChange;
import org.hpf.internal.write.StagedMerge;
import org.hpf.internal.write.StagedShare;
import org.hpf.internal.write.WriterOptions;
import org.hpf.mapreduce.ArchiveJobException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The archive job on the local job runner and the local file system. */
@Tag("slow")
class ArchiveJobLocalTest {
  @TempDir java.nio.file.Path tmp;
  private Configuration conf;
  private FileSystem fs;
  private Path sources;

  @BeforeEach
  void setUp() throws IOException {
    conf = LocalJobs.configure(new Configuration());
    conf.setLong(JobSettings.SPLIT_FILES, 70); // several map tasks
    conf.setInt(JobSettings.MAP_THREADS, 3);
    fs = FileSystem.getLocal(conf).getRaw();
    sources = new Path(tmp.resolve("sources").toUri());
  }

  private WriterOptions options() {
    return WriterOptions.builder().settings(s -> s.threads(2)).layout(l -> l.withPartSize(64 << 10))
        .build();
  }

  @Test
  void thePublicToolCreatesAndTheApiAppendsWithSettingsFromTheConfiguration() throws Exception {
    Map<String, byte[]> files = new HashMap<>(JobSources.write(fs, new Path(sources, "a"), "x",
        90, 11));
    Path more = new Path(sources, "b");
    files.putAll(JobSources.write(fs, more, "y", 30, 12));
    Path archive = new Path(tmp.resolve("tool.hpf").toUri());
    Configuration toolConf = new Configuration(conf);
    toolConf.set(org.hpf.ArchiveSettings.PART_SIZE_KEY, "32k");
    assertEquals(0, org.apache.hadoop.util.ToolRunner.run(
        new org.hpf.mapreduce.ArchiveJob(toolConf),
        new String[] {new Path(sources, "a").toString(), archive.toString()}));
    assertEquals(2, org.apache.hadoop.util.ToolRunner.run(
        new org.hpf.mapreduce.ArchiveJob(toolConf), new String[] {archive.toString()}));
    org.hpf.mapreduce.ArchiveJob.Result appended =
        org.hpf.mapreduce.ArchiveJob.append(toolConf, List.of(more), archive);
    assertEquals(2, appended.generation());
    assertEquals(30, appended.filesAdded());
    assertEquals(120, appended.fileCount());
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      assertEquals(32 << 10, reader.manifest().partSize());
    }
    try (org.hpf.ArchiveReader reader = org.hpf.HpfArchive.openReader(archive, conf)) {
      for (Map.Entry<String, byte[]> file : files.entrySet()) {
        assertArrayEquals(file.getValue(), reader.get(file.getKey()), file.getKey());
      }
    }
  }

  @Test
  void buildsWhatCreateBuildsFromTheSameSources() throws IOException {
    Map<String, byte[]> files = new HashMap<>();
    Path logs = new Path(sources, "logs");
    Path images = new Path(sources, "images");
    files.putAll(JobSources.write(fs, logs, "app", 300, 1));
    files.putAll(JobSources.write(fs, images, "cam", 150, 2));
    chmodInTurn(logs, 0644, 0600, 0750);
    Path byJob = new Path(tmp.resolve("job.hpf").toUri());
    JobDriver.Result result = JobDriver.create(conf, List.of(logs, images), byJob, options());

    assertEquals(450, result.files());
    assertTrue(result.maps() >= 6, "maps: " + result.maps());
    assertEquals(1, result.manifest().generation());
    JobSources.assertHolds(conf, byJob, new java.util.TreeMap<>(files));
    Path byCreate = new Path(tmp.resolve("create.hpf").toUri());
    ArchiveCreator.create(conf, byCreate, List.of(logs, images), options());
    JobSources.assertSameMembers(conf, byCreate, byJob);
    // The tasks' access ids agree: each member has its file's owner, group and mode.
    Map<String, MemberAccess> accesses = accesses(byJob);
    assertEquals(accesses(byCreate), accesses);
    assertEquals(3, new java.util.HashSet<>(accesses.values()).size(), accesses.toString());
    assertOnlyGenerationFiles(byJob);
  }

  /** Gives the files below {@code root} the modes in turn: several access classes. */
  private void chmodInTurn(Path root, int... modes) throws IOException {
    org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> files =
        fs.listFiles(root, true);
    for (int i = 0; files.hasNext(); i++) {
      fs.setPermission(files.next().getPath(),
          new org.apache.hadoop.fs.permission.FsPermission((short) modes[i % modes.length]));
    }
  }

  /** Every member's owner, group and mode, by name. */
  private Map<String, MemberAccess> accesses(Path archive) throws IOException {
    Map<String, MemberAccess> accesses = new java.util.TreeMap<>();
    try (ArchiveReader reader = HpfArchive.openReader(archive, conf);
        MemberIterator members = reader.list("")) {
      while (members.hasNext()) {
        MemberStatus member = members.next();
        accesses.put(member.name(), member.access());
      }
    }
    return accesses;
  }

  /** Nothing but what the newest generation names: no staging, lock or stray part. */
  private void assertOnlyGenerationFiles(Path archive) throws IOException {
    List<String> entries = JobSources.entries(fs, archive);
    assertFalse(entries.contains(ArchiveLayout.STAGING), entries.toString());
    assertFalse(entries.contains(ArchiveLayout.LOCK), entries.toString());
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      Manifest manifest = reader.manifest();
      for (String entry : entries) {
        if (entry.startsWith("part-")) {
          int id = Integer.parseInt(entry.substring(5));
          assertTrue(manifest.part(id) != null, "stray " + entry + " in " + entries);
        }
      }
    }
  }

  @Test
  void appendsThroughTheJob() throws IOException {
    Path first = new Path(sources, "first");
    Path second = new Path(sources, "second");
    Map<String, byte[]> files = new java.util.TreeMap<>(JobSources.write(fs, first, "a", 120, 3));
    Map<String, byte[]> more = JobSources.write(fs, second, "b", 90, 4);
    Path archive = new Path(tmp.resolve("grow.hpf").toUri());
    JobDriver.create(conf, List.of(first), archive, options());
    Map<String, MemberAccess> created = accesses(archive);
    chmodInTurn(second, 0640);
    JobDriver.Result appended = JobDriver.append(conf, List.of(second), archive, options());
    assertEquals(2, appended.manifest().generation());
    files.putAll(more);
    JobSources.assertHolds(conf, archive, files);
    // The append's class is new to the archive; the created members keep theirs.
    Map<String, MemberAccess> accesses = accesses(archive);
    for (String name : more.keySet()) {
      assertEquals(0640, accesses.get(name).mode(), name);
    }
    accesses.keySet().retainAll(created.keySet());
    assertEquals(created, accesses);
    assertOnlyGenerationFiles(archive);

    // The same names again: refused before a task runs, the archive as it was.
    NameExistsException clash = assertThrows(NameExistsException.class,
        () -> JobDriver.append(conf, List.of(second), archive, options()));
    assertTrue(clash.getMessage().contains("b/d0/s0/f-0.bin"), clash.getMessage());
    JobSources.assertHolds(conf, archive, files);
    assertOnlyGenerationFiles(archive);
  }

  @Test
  void refusesBadSourcesBeforeWritingAnything() throws IOException {
    Path tree = new Path(sources, "tree");
    JobSources.write(fs, tree, "x", 10, 5);
    Path archive = new Path(tmp.resolve("bad.hpf").toUri());

    Path file = new Path(tree, "x/d0/s0/f-0.bin");
    SourceException notDir = assertThrows(SourceException.class,
        () -> JobDriver.create(conf, List.of(file), archive, options()));
    assertTrue(notDir.getMessage().contains("not a directory"), notDir.getMessage());

    SourceException missing = assertThrows(SourceException.class,
        () -> JobDriver.create(conf, List.of(new Path(sources, "nope")), archive, options()));
    assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());

    Path inside = new Path(tree, "self.hpf");
    SourceException self = assertThrows(SourceException.class,
        () -> JobDriver.create(conf, List.of(tree), inside, options()));
    assertTrue(self.getMessage().contains("inside the source"), self.getMessage());
    assertFalse(fs.exists(inside));

    // Two roots that both give x/...: named with both paths, nothing written.
    Path twin = new Path(sources, "twin");
    JobSources.write(fs, twin, "x", 3, 6);
    DuplicateNameException duplicate = assertThrows(DuplicateNameException.class,
        () -> JobDriver.create(conf, List.of(tree, twin), archive, options()));
    assertTrue(duplicate.getMessage().contains("x/d0/s0/f-0.bin"), duplicate.getMessage());
    assertFalse(fs.exists(archive));
  }

  @Test
  void aSourceThatChangesWhileTheJobRunsFailsTheJobAndLeavesNoArchive() throws IOException {
    Path tree = new Path(sources, "tree");
    JobSources.write(fs, tree, "y", 200, 7);
    Path archive = new Path(tmp.resolve("changing.hpf").toUri());
    Path victim = new Path(tree, "y/d1/s1/f-1.bin");
    ArchiveJobException failed = assertThrows(ArchiveJobException.class,
        () -> JobDriver.run(conf, List.of(tree), archive, false, options(), job -> {
          try (FSDataOutputStream out = fs.create(victim, true)) {
            out.write(new byte[5]); // after listing, before the tasks read it
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }));
    assertTrue(failed.getMessage().contains("changed while it was read"), failed.getMessage());
    assertTrue(failed.getMessage().contains("f-1.bin"), failed.getMessage());
    assertFalse(fs.exists(archive), "a failed create leaves no archive");
  }

  /**
   * The job's output with a committer that fails after the job's commit: the archive's lock
   * broken (so releasing it fails) and an error, as an ApplicationMaster whose cleanup fails.
   */
  public static final class FailingAfterCommit extends OutputFormat<NullWritable, NullWritable> {
    private final StagedOutputFormat format = new StagedOutputFormat();

    @Override
    public RecordWriter<NullWritable, NullWritable> getRecordWriter(TaskAttemptContext c) {
      return format.getRecordWriter(c);
    }

    @Override
    public void checkOutputSpecs(JobContext context) {}

    @Override
    public OutputCommitter getOutputCommitter(TaskAttemptContext context) {
      StagedCommitter committer = new StagedCommitter();
      return new OutputCommitter() {
        @Override
        public void setupJob(JobContext job) throws IOException {
          committer.setupJob(job);
        }

        @Override
        public void setupTask(TaskAttemptContext task) {
          committer.setupTask(task);
        }

        @Override
        public boolean needsTaskCommit(TaskAttemptContext task) throws IOException {
          return committer.needsTaskCommit(task);
        }

        @Override
        public void commitTask(TaskAttemptContext task) throws IOException {
          committer.commitTask(task);
        }

        @Override
        public void abortTask(TaskAttemptContext task) throws IOException {
          committer.abortTask(task);
        }

        @Override
        public void commitJob(JobContext job) throws IOException {
          committer.commitJob(job);
          Path archive = JobSettings.archive(job.getConfiguration());
          FileSystem fs = archive.getFileSystem(job.getConfiguration());
          Path lock = new Path(archive, ArchiveLayout.LOCK);
          fs.delete(lock, false);
          fs.mkdirs(new Path(lock, "in-the-way"));
          throw new IOException("cleanup failed after the commit");
        }
      };
    }
  }

  @Test
  void aJobThatFailsAfterItsCommitPublishedSucceedsWithWarnings() throws IOException {
    Path tree = new Path(sources, "tree");
    Map<String, byte[]> files = new java.util.TreeMap<>(JobSources.write(fs, tree, "w", 100,
        10));
    Path archive = new Path(tmp.resolve("late.hpf").toUri());
    JobDriver.Result result = JobDriver.run(conf, List.of(tree), archive, false, options(),
        job -> job.setOutputFormatClass(FailingAfterCommit.class));

    assertEquals(1, result.manifest().generation());
    assertEquals(100, result.manifest().fileCount());
    List<String> warnings = result.warnings();
    assertEquals(3, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("reported a failure after its commit published "
        + "generation 1"), warnings.get(0));
    assertTrue(warnings.get(1).contains("releasing the archive's lock failed"), warnings.get(1));
    // The lock is no longer the driver's: its staged work is left to the next writer's recovery.
    assertTrue(warnings.get(2).contains("could not remove the staged work")
        && warnings.get(2).contains("lock lost"), warnings.get(2));
    JobSources.assertHolds(conf, archive, files);
  }

  @Test
  void workStagedByADriverThatDiedIsNeverCommittedAndRecoveryRemovesIt() throws IOException {
    Path first = new Path(sources, "first");
    Map<String, byte[]> files = new java.util.TreeMap<>(JobSources.write(fs, first, "a", 40, 8));
    Path second = new Path(sources, "second");
    JobSources.write(fs, second, "b", 40, 9);
    Path archive = new Path(tmp.resolve("orphan.hpf").toUri());
    JobDriver.create(conf, List.of(first), archive, options());

    // A driver starts an append, its tasks stage work, and it dies (never closed).
    StagedChange dead = StagedChange.append(conf, archive,
        options());
    Path work = new Path(dead.stagingDirectory(), "attempts/a0");
    fs.mkdirs(work);
    ArchiveStorage workStorage = HdfsIntegration.storage(fs, work);
    try (StagedMerge merge = new StagedMerge(workStorage, workStorage, dead.plan(), options(),
        dead.plan().firstPartId(), dead.plan().firstPartId() + 10)) {
      dead.survey(List.of(second), source -> merge.add(source, dead.accessId(source)));
      merge.finish();
    }
    Path journal = new Path(work, StagedMerge.JOURNAL);

    // An operator breaks the stale lock: recovery removes the staged work...
    org.hpf.internal.write.ArchiveWriter.recover(conf, archive,
        WriterOptions.builder().settings(s -> s.breakLock(true)).build());
    assertFalse(JobSources.entries(fs, archive).contains(ArchiveLayout.STAGING));
    // ...and the dead driver's job can no longer commit it.
    org.hpf.HpfException refused = assertThrows(org.hpf.HpfException.class,
        () -> StagedChange.commit(conf, archive, dead.plan(), List.of(new StagedShare(
            "a0", journal, Map.of(), 40, 0)), options()));
    assertTrue(refused.getMessage().contains("no longer holds"), refused.getMessage());
    JobSources.assertHolds(conf, archive, files);
  }
}
