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
 */
public record ReadSettings(boolean openAllFiles, long recordCacheBytes) {
  /** Configuration key of {@link #openAllFiles()}. */
  public static final String OPEN_ALL_FILES_KEY = "hpf.read.open.all.files";
  /** Configuration key of {@link #recordCacheBytes()} ({@code 64m} style suffixes allowed). */
  public static final String RECORD_CACHE_KEY = "hpf.read.record.cache.bytes";

  /**
   * Checks the components.
   *
   * @param openAllFiles whether to open every file up front
   * @param recordCacheBytes heap for cached records, 0 for none
   * @throws IllegalArgumentException if {@code recordCacheBytes} is negative
   */
  public ReadSettings {
    if (recordCacheBytes < 0) {
      throw new IllegalArgumentException("record cache of " + recordCacheBytes + " bytes");
    }
  }

  /**
   * The defaults: files opened when first needed, no record cache.
   *
   * @return the default settings
   */
  public static ReadSettings defaults() {
    return new ReadSettings(false, 0);
  }

  /**
   * The settings the {@code hpf.read.*} keys of {@code conf} give, defaults for keys not set.
   *
   * @param conf the configuration to read
   * @return the settings
   */
  public static ReadSettings from(Configuration conf) {
    return new ReadSettings(conf.getBoolean(OPEN_ALL_FILES_KEY, false),
        conf.getLongBytes(RECORD_CACHE_KEY, 0));
  }

  /**
   * These settings with all files opened up front, or not.
   *
   * @param value whether to open every file when the reader opens
   * @return new settings
   */
  public ReadSettings withOpenAllFiles(boolean value) {
    return new ReadSettings(value, recordCacheBytes);
  }

  /**
   * These settings with another record cache.
   *
   * @param bytes heap for cached records, 0 for none
   * @return new settings
   */
  public ReadSettings withRecordCacheBytes(long bytes) {
    return new ReadSettings(openAllFiles, bytes);
  }
}
