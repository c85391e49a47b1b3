package org.hpf;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.write.ChangeResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ArchiveWriter} over the engine's writer. A compaction is held until the commit,
 * where it runs as the engine's own one-shot change.
 */
final class DefaultArchiveWriter implements ArchiveWriter {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveWriter.class);
  private final org.hpf.internal.write.ArchiveWriter writer;
  private final String location;
  /** The live fraction of a compaction asked for and not yet committed, or NaN. */
  private double compaction = Double.NaN;

  DefaultArchiveWriter(org.hpf.internal.write.ArchiveWriter writer) {
    this.writer = writer;
    this.location = writer.location();
  }

  @Override
  public void add(String name, InputStream in, long length, long modificationTime)
      throws IOException {
    checkNoCompaction();
    writer.add(name, in, length, modificationTime);
  }

  @Override
  public void add(String name, InputStream in, long length, long modificationTime,
      MemberAccess access) throws IOException {
    checkNoCompaction();
    writer.add(name, in, length, modificationTime, access);
  }

  @Override
  public void add(String name, byte[] bytes) throws IOException {
    checkNoCompaction();
    writer.add(name, bytes, System.currentTimeMillis());
  }

  @Override
  public void replace(String name, InputStream in, long length, long modificationTime)
      throws IOException {
    checkNoCompaction();
    writer.replace(name, in, length, modificationTime);
  }

  @Override
  public void replace(String name, byte[] bytes) throws IOException {
    checkNoCompaction();
    writer.replace(name, new ByteArrayInputStream(bytes), bytes.length,
        System.currentTimeMillis());
  }

  @Override
  public void replace(String name, InputStream in, long length, long modificationTime,
      MemberAccess access) throws IOException {
    checkNoCompaction();
    writer.replace(name, in, length, modificationTime, access);
  }

  @Override
  public void addTree(List<Path> roots, ExistingNames existing) throws IOException {
    checkNoCompaction();
    writer.addTree(roots, existing);
  }

  @Override
  public void delete(String name) throws IOException {
    checkNoCompaction();
    writer.stageDelete(name);
  }

  @Override
  public void compact(double minLiveFraction) {
    if (!(minLiveFraction >= 0 && minLiveFraction <= 1)) {
      throw new IllegalArgumentException("live fraction must be in [0, 1]: " + minLiveFraction);
    }
    if (writer.hasPendingChanges()) {
      throw new IllegalStateException("a compaction is a change of its own: commit or abort "
          + "the members added or deleted first");
    }
    compaction = minLiveFraction;
  }

  private void checkNoCompaction() {
    if (!Double.isNaN(compaction)) {
      throw new IllegalStateException("a compaction is a change of its own: commit or abort "
          + "it first");
    }
  }

  @Override
  public CommitResult commit() throws IOException {
    ChangeResult result;
    if (Double.isNaN(compaction)) {
      result = writer.commit();
    } else {
      double fraction = compaction;
      compaction = Double.NaN;
      result = writer.compact(fraction);
    }
    return new CommitResult(result.generation(), result.filesAdded(), result.filesReplaced(),
        result.filesDeleted(), result.bytesWritten(), result.fileCount(), result.millis(),
        result.hdfs().describe(), warnings(result));
  }

  /** The commit's own warnings (cleanup left to the next writer), then the HDFS features'. */
  private static List<String> warnings(ChangeResult result) {
    List<String> all = new ArrayList<>(result.warnings());
    all.addAll(result.hdfs().warnings());
    return List.copyOf(all);
  }

  @Override
  public void abort() throws IOException {
    compaction = Double.NaN;
    writer.abort();
  }

  @Override
  public void close() throws IOException {
    warnOfDiscardedChange();
    writer.close();
  }

  /** Closing without a commit is legal (it aborts), but easy to do by mistake: say what goes. */
  private void warnOfDiscardedChange() {
    long added = writer.pendingAdditions();
    long deleted = writer.pendingDeletions();
    boolean creating = writer.createsUncommitted();
    if (added == 0 && deleted == 0 && !creating && Double.isNaN(compaction)) {
      return;
    }
    LOG.warn("{}: writer closed without commit(): {} member(s) added and {} deletion(s){}"
        + " discarded{}", location, added, deleted,
        Double.isNaN(compaction) ? "" : " and a compaction",
        creating ? "; the archive was never committed and is removed" : "");
  }
}
