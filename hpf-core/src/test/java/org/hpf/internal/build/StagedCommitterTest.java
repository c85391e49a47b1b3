package org.hpf.internal.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.write.Source;
import org.hpf.internal.write.StagedChange;
import org.hpf.internal.write.StagedMerge;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committer's protocol with two attempts of one task writing the same part ids (a
 * speculative pair, or a retry after a failure): whatever the other attempt did, only the
 * committed attempt's members count, each once.
 */
class StagedCommitterTest {
  @TempDir java.nio.file.Path tmp;

  @Test
  void onlyTheCommittedAttemptCountsEvenAfterAnotherAttemptsCommitDiedHalfway()
      throws IOException {
    Configuration conf = new Configuration();
    FileSystem fs = FileSystem.getLocal(conf).getRaw();
    Path root = new Path(tmp.resolve("src").toUri());
    Map<String, byte[]> files = new TreeMap<>(JobSources.write(fs, root, "t", 60, 21));
    Path archive = new Path(tmp.resolve("a.hpf").toUri());
    WriterOptions options = WriterOptions.builder().threads(2).partSize(32 << 10).build();
    StagedCommitter committer = new StagedCommitter();
    try (StagedChange change = StagedChange.create(conf, archive, options)) {
      Configuration job = new Configuration(conf);
      change.plan().store(job);
      job.set(JobSettings.ARCHIVE, fs.makeQualified(archive).toString());
      job.set(JobSettings.STAGING, change.stagingDirectory().toString());
      List<Source> sources = new java.util.ArrayList<>();
      change.survey(List.of(root), sources::add);
      committer.setupJob(new JobContextImpl(job, new JobID("t", 1)));

      TaskAttemptID first = new TaskAttemptID("t", 1, TaskType.MAP, 0, 0);
      TaskAttemptID second = new TaskAttemptID("t", 1, TaskType.MAP, 0, 1);
      merge(job, first, sources, options);
      merge(job, second, sources, options);
      assertTrue(committer.needsTaskCommit(new TaskAttemptContextImpl(job, first)));
      // The first attempt's commit dies after moving its parts, before its journal.
      Path work = StagedCommitter.workPath(job, first);
      for (var part : fs.listStatus(work, p -> p.getName().startsWith("part-"))) {
        fs.rename(part.getPath(), new Path(archive, part.getPath().getName()));
      }
      committer.commitTask(new TaskAttemptContextImpl(job, second));
      committer.abortTask(new TaskAttemptContextImpl(job, first));
      assertFalse(fs.exists(work));
      committer.commitJob(new JobContextImpl(job, new JobID("t", 1)));
      assertEquals(1, change.finish().generation());
    }
    JobSources.assertHolds(conf, archive, files);
  }

  private static void merge(Configuration job, TaskAttemptID attempt, List<Source> sources,
      WriterOptions options) throws IOException {
    Path work = StagedCommitter.workPath(job, attempt);
    FileSystem fs = work.getFileSystem(job);
    fs.mkdirs(work);
    try (StagedMerge merge = new StagedMerge(HdfsIntegration.storage(fs, work),
        org.hpf.internal.write.StagedPlan.load(job), options, 0, 40)) {
      for (Source source : sources) {
        merge.add(source);
      }
      merge.finish();
    }
  }
}
