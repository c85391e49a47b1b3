package org.hpf.internal.read;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.cache.CacheStats;
import java.util.concurrent.atomic.AtomicInteger;
import org.hpf.internal.format.IndexRecord;

/**
 * The records of recent lookups, kept in memory within a byte budget so that a warm get of a
 * hot member reads nothing but its entry (one positioned read). Least recently used records go
 * first. Off (budget 0) by default: a record read from an index file pinned in DataNode memory
 * costs a round trip, not a disk read.
 */
final class RecordCache {
  /**
   * Heap per cached record: the record and its hash, the boxed key, the cache's entry, table
   * slot and queue links. Measured at 181 bytes per record over a million records (Java 17,
   * compressed pointers); the budget counts this much per record, not 40.
   */
  static final int BYTES_PER_RECORD = 184;

  private static final RecordCache OFF = new RecordCache(null, 0);

  private final Cache<Long, IndexRecord> records;
  private final long budget;
  private final AtomicInteger buckets = new AtomicInteger();

  private RecordCache(Cache<Long, IndexRecord> records, long budget) {
    this.records = records;
    this.budget = budget;
  }

  /** A cache of at most {@code bytes} of heap; 0 turns it off. */
  static RecordCache ofBytes(long bytes) {
    if (bytes < BYTES_PER_RECORD) {
      return OFF;
    }
    Cache<Long, IndexRecord> records = CacheBuilder.newBuilder()
        .maximumSize(bytes / BYTES_PER_RECORD)
        .concurrencyLevel(Math.max(4, Runtime.getRuntime().availableProcessors()))
        .recordStats()
        .build();
    return new RecordCache(records, bytes);
  }

  /** A number for a newly loaded bucket; with a slot it makes the key of a record. */
  long newBucketKey() {
    return (long) buckets.incrementAndGet() << 32;
  }

  IndexRecord get(long bucketKey, long slot) {
    return records == null ? null : records.getIfPresent(bucketKey | slot);
  }

  void put(long bucketKey, long slot, IndexRecord record) {
    if (records != null) {
      records.put(bucketKey | slot, record);
    }
  }

  /** How the cache did: records held, their heap, hits and misses. */
  RecordCacheStats stats() {
    if (records == null) {
      return new RecordCacheStats(0, 0, 0, 0, 0);
    }
    CacheStats stats = records.stats();
    long size = records.size();
    return new RecordCacheStats(budget, size, size * BYTES_PER_RECORD, stats.hitCount(),
        stats.missCount());
  }
}
