package org.hpf.internal.build;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.hpf.internal.format.Manifest.PartInfo;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.write.StagedMerge;
import org.hpf.internal.write.StagedPlan;
import org.hpf.internal.write.WriterOptions;

/**
 * Where a task attempt writes: its work directory (journal and seal), where its parts go (the
 * work directory, or on an object store the archive directory) and the part ids it may use (its
 * split's, or on an object store those of the slot it claimed, {@link AttemptSlots}).
 */
final class AttemptOutput {
  private final TaskAttemptID attempt;
  private final SourceSplit split;
  private final StagedPlan plan;
  private final WriterOptions options;
  private final ArchiveStorage work;
  private final ArchiveStorage parts;
  private final SourceSplit.PartIds ids;

  private AttemptOutput(TaskAttemptID attempt, SourceSplit split, StagedPlan plan,
      WriterOptions options, ArchiveStorage work, ArchiveStorage parts,
      SourceSplit.PartIds ids) {
    this.attempt = attempt;
    this.split = split;
    this.plan = plan;
    this.options = options;
    this.work = work;
    this.parts = parts;
    this.ids = ids;
  }

  /** Prepares {@code attempt}'s output for {@code split}, as the job's configuration says. */
  static AttemptOutput open(Configuration conf, TaskAttemptID attempt, SourceSplit split)
      throws IOException {
    StagedPlan plan = StagedPlan.load(conf);
    WriterOptions options = JobSettings.writerOptions(conf);
    Path workPath = StagedCommitter.workPath(conf, attempt);
    FileSystem fs = JobSettings.fileSystemToWrite(workPath, conf);
    StagedCommitter.mkdirsInStaging(conf, workPath);
    ArchiveStorage work = storage(fs, workPath, plan, options);
    if (!JobSettings.partsInPlace(conf)) {
      return new AttemptOutput(attempt, split, plan, options, work, work, split.partIds(0, 1));
    }
    int slots = JobSettings.attemptSlots(conf);
    int slot = AttemptSlots.claim(HdfsIntegration.storage(fs, JobSettings.staging(conf)),
        split.index(), attempt, slots);
    return new AttemptOutput(attempt, split, plan, options, work,
        storage(fs, JobSettings.archive(conf), plan, options), split.partIds(slot, slots));
  }

  private static ArchiveStorage storage(FileSystem fs, Path root, StagedPlan plan,
      WriterOptions options) {
    return HdfsIntegration.storage(fs, root, (short) options.layout().replication(),
        plan.header().partSize(), options.settings());
  }

  WriterOptions options() {
    return options;
  }

  /** The merge of this attempt's share. */
  StagedMerge merge() throws IOException {
    return new StagedMerge(work, parts, plan, options, ids.first(), ids.limit());
  }

  /** Seals the attempt's finished work: call after the merge's finish. */
  ShareSeal seal(List<PartInfo> sealed) throws IOException {
    return ShareSeal.write(work, parts, attempt, split.index(), sealed);
  }
}
