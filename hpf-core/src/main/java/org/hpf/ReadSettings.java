package org.hpf;

import org.apache.hadoop.conf.Configuration;

/**
 * How a reader reads.
 *
 * @param openAllFiles open every index and part file of the generation when the reader opens
 *     (one NameNode call each on HDFS), so that no get ever asks the NameNode; by default each
 *     file is opened by the first get that needs it ({@value #OPEN_ALL_FILES_KEY})
 * @param recordCacheBytes heap for the index records of recent lookups, 0 for none (the
 *     default); a get whose record is cached reads only the member's entry. A record takes
 *     about 190 bytes, so 64 MiB holds about 360,000 ({@value #RECORD_CACHE_KEY})
 * @param indexMemoryBytes the most heap a reader gives index records read whole: where the
 *     archive's index files together are no larger (about 42 bytes per member), a bucket that
 *     has served enough lookups to pay for it is read whole once, and every later lookup in it
 *     reads nothing, so that a get is one read of the member's bytes. 0 turns this off; the
 *     default, {@value #DEFAULT_INDEX_MEMORY_BYTES} bytes, covers archives of up to about
 *     750,000 members ({@value #INDEX_MEMORY_KEY})
 */
public record ReadSettings(boolean openAllFiles, long recordCacheBytes, long indexMemoryBytes) {
  /** Configuration key of {@link #openAllFiles()}. */
  public static final String OPEN_ALL_FILES_KEY = "hpf.read.open.all.files";
  /** Configuration key of {@link #recordCacheBytes()} ({@code 64m} style suffixes allowed). */
  public static final String RECORD_CACHE_KEY = "hpf.read.record.cache.bytes";
  /** Configuration key of {@link #indexMemoryBytes()} ({@code 64m} style suffixes allowed). */
  public static final String INDEX_MEMORY_KEY = "hpf.read.index.memory.bytes";
  /** Default of {@link #indexMemoryBytes()}: 32 MiB. */
  public static final long DEFAULT_INDEX_MEMORY_BYTES = 32L << 20;

  /**
   * Checks the components.
   *
   * @param openAllFiles whether to open every file up front
   * @param recordCacheBytes heap for cached records, 0 for none
   * @param indexMemoryBytes heap for index records read whole, 0 for none
   * @throws IllegalArgumentException if {@code recordCacheBytes} or {@code indexMemoryBytes} is
   *     negative
   */
  public ReadSettings {
    if (recordCacheBytes < 0) {
      throw new IllegalArgumentException("record cache of " + recordCacheBytes + " bytes");
    }
    if (indexMemoryBytes < 0) {
      throw new IllegalArgumentException("index memory of " + indexMemoryBytes + " bytes");
    }
  }

  /**
   * Settings with the default index memory.
   *
   * @param openAllFiles whether to open every file up front
   * @param recordCacheBytes heap for cached records, 0 for none
   * @throws IllegalArgumentException if {@code recordCacheBytes} is negative
   */
  public ReadSettings(boolean openAllFiles, long recordCacheBytes) {
    this(openAllFiles, recordCacheBytes, DEFAULT_INDEX_MEMORY_BYTES);
  }

  /**
   * The defaults: files opened when first needed, no record cache, index records read whole
   * within {@value #DEFAULT_INDEX_MEMORY_BYTES} bytes.
   *
   * @return the default settings
   */
  public static ReadSettings defaults() {
    return new ReadSettings(false, 0, DEFAULT_INDEX_MEMORY_BYTES);
  }

  /**
   * The settings the {@code hpf.read.*} keys of {@code conf} give, defaults for keys not set.
   *
   * @param conf the configuration to read
   * @return the settings
   */
  public static ReadSettings from(Configuration conf) {
    return new ReadSettings(conf.getBoolean(OPEN_ALL_FILES_KEY, false),
        conf.getLongBytes(RECORD_CACHE_KEY, 0),
        conf.getLongBytes(INDEX_MEMORY_KEY, DEFAULT_INDEX_MEMORY_BYTES));
  }

  /**
   * These settings with all files opened up front, or not.
   *
   * @param value whether to open every file when the reader opens
   * @return new settings
   */
  public ReadSettings withOpenAllFiles(boolean value) {
    return new ReadSettings(value, recordCacheBytes, indexMemoryBytes);
  }

  /**
   * These settings with another record cache.
   *
   * @param bytes heap for cached records, 0 for none
   * @return new settings
   */
  public ReadSettings withRecordCacheBytes(long bytes) {
    return new ReadSettings(openAllFiles, bytes, indexMemoryBytes);
  }

  /**
   * These settings with another index memory.
   *
   * @param bytes the most heap for index records read whole, 0 for none
   * @return new settings
   */
  public ReadSettings withIndexMemoryBytes(long bytes) {
    return new ReadSettings(openAllFiles, recordCacheBytes, bytes);
  }
}
