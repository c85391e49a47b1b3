package org.hpf.internal.read;

import org.hpf.ReadSettings;
import org.hpf.internal.format.NameHasher;

/**
 * How an archive is read.
 *
 * @param hasher testing only: hash names with this instead of the archive's algorithm (null,
 *     the default: the one its manifest names)
 * @param openAllFiles open every index and part file of the generation when the reader opens
 *     (one NameNode RPC each on HDFS), so that no get ever asks the NameNode; by default each
 *     file is opened by the first get that needs it
 * @param recordCacheBytes heap for the records of recent lookups (0, the default: none); a get
 *     whose record is cached reads only the member's entry. Each record counts
 *     {@value RecordCache#BYTES_PER_RECORD} bytes, so 64 MiB holds about 360,000 records
 * @param indexMemoryBytes the most index bytes a reader may hold: where the generation's index
 *     files together are no larger, a bucket looked up often enough keeps its records in memory
 *     and later lookups in it read nothing ({@link ResidentRecords}); 0: never
 * @param sharedIndexMemory where the records held count, shared with other readers (its size is
 *     {@code indexMemoryBytes}); null: each reader has its own
 */
public record ReaderOptions(NameHasher hasher, boolean openAllFiles, long recordCacheBytes,
    long indexMemoryBytes, IndexMemory sharedIndexMemory) {
  public ReaderOptions {
    if (recordCacheBytes < 0) {
      throw new IllegalArgumentException("record cache of " + recordCacheBytes + " bytes");
    }
    if (indexMemoryBytes < 0) {
      throw new IllegalArgumentException("index memory of " + indexMemoryBytes + " bytes");
    }
  }

  public ReaderOptions(NameHasher hasher) {
    this(hasher, false, 0, ReadSettings.DEFAULT_INDEX_MEMORY_BYTES, null);
  }

  public static ReaderOptions defaults() {
    return new ReaderOptions(null);
  }

  public ReaderOptions withOpenAllFiles(boolean value) {
    return new ReaderOptions(hasher, value, recordCacheBytes, indexMemoryBytes,
        sharedIndexMemory);
  }

  public ReaderOptions withRecordCacheBytes(long bytes) {
    return new ReaderOptions(hasher, openAllFiles, bytes, indexMemoryBytes, sharedIndexMemory);
  }

  /** These options with a reader's own index memory of {@code bytes}. */
  public ReaderOptions withIndexMemoryBytes(long bytes) {
    return new ReaderOptions(hasher, openAllFiles, recordCacheBytes, bytes, null);
  }

  /** These options with index memory shared by every reader given {@code memory}. */
  public ReaderOptions withSharedIndexMemory(IndexMemory memory) {
    return new ReaderOptions(hasher, openAllFiles, recordCacheBytes, memory.bytes(), memory);
  }
}
