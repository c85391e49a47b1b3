package org.hpf.write;

/** What one append, delete or compaction committed. */
public record ChangeResult(long generation, long filesAdded, long filesReplaced,
    long filesDeleted, long bytesWritten, int partsWritten, int partsRemoved,
    int bucketsRewritten, long indexBytesWritten, long fileCount, long millis) {}
