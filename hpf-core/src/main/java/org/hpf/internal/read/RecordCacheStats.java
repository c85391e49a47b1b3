package org.hpf.internal.read;

/**
 * What a reader's record cache holds and how it served lookups.
 *
 * @param budgetBytes the heap the cache may use (0: off)
 * @param records records held now
 * @param bytes the heap they take (an estimate of {@code records} x 184 bytes)
 * @param hits lookups answered from the cache
 * @param misses lookups that read a record from an index file
 */
public record RecordCacheStats(long budgetBytes, long records, long bytes, long hits,
    long misses) {}
