package org.hpf.internal.write;

import java.util.List;
import org.hpf.ExistingNames;
import org.hpf.internal.hdfs.HdfsReport;

/**
 * What one append, delete or compaction committed; {@code hdfs} says what the HDFS integration
 * did or skipped (docs/HDFS.md); {@code links}, for an append of trees, what the walk did with
 * symbolic links; {@code filesSkipped}, members left as they were because their sources were
 * identical ({@link ExistingNames#SKIP_IDENTICAL}); {@code warnings}, what failed after the
 * commit point without undoing the change (cleanup that the next writer does instead).
 */
public record ChangeResult(long generation, long filesAdded, long filesReplaced,
    long filesDeleted, long bytesWritten, int partsWritten, int partsRemoved,
    int bucketsRewritten, long indexBytesWritten, long fileCount, long millis,
    HdfsReport hdfs, SourceLinks links, long filesSkipped, List<String> warnings) {

  public ChangeResult {
    warnings = List.copyOf(warnings);
  }

  /** This result with {@code more} warnings (those of closing the writer, say). */
  public ChangeResult withWarnings(List<String> more) {
    return new ChangeResult(generation, filesAdded, filesReplaced, filesDeleted, bytesWritten,
        partsWritten, partsRemoved, bucketsRewritten, indexBytesWritten, fileCount, millis, hdfs,
        links, filesSkipped, Warnings.join(warnings, more));
  }
}
