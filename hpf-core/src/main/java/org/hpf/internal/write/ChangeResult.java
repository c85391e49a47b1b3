package org.hpf.internal.write;

import org.hpf.ExistingNames;
import org.hpf.internal.hdfs.HdfsReport;

/**
 * What one append, delete or compaction committed; {@code hdfs} says what the HDFS integration
 * did or skipped (docs/HDFS.md); {@code links}, for an append of trees, what the walk did with
 * symbolic links; {@code filesSkipped}, members left as they were because their sources were
 * identical ({@link ExistingNames#SKIP_IDENTICAL}).
 */
public record ChangeResult(long generation, long filesAdded, long filesReplaced,
    long filesDeleted, long bytesWritten, int partsWritten, int partsRemoved,
    int bucketsRewritten, long indexBytesWritten, long fileCount, long millis,
    HdfsReport hdfs, SourceLinks links, long filesSkipped) {}
