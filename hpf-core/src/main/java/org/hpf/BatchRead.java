package org.hpf;

import org.apache.hadoop.conf.Configuration;

/**
 * How a batch read ({@link ArchiveReader#readAll}, {@link ArchiveReader#readDirectory}) reads.
 *
 * @param windowBytes the most bytes read and not yet handed out: members are read ahead while
 *     they fit, counted from the first byte of a read to its last (the entries and the gaps
 *     read between them), compressed members with their original bytes too. A member that
 *     alone does not fit is not read ahead: it is handed out in its turn and read when its
 *     bytes are asked for, as {@link ArchiveReader#get} or {@link ArchiveReader#open} reads it
 *     ({@value #WINDOW_KEY}, default 64 MiB)
 * @param gapBytes entries of one part file at most this far apart are read with one
 *     positioned read, the bytes between them included: one read costs about what a round trip
 *     costs, whatever its size up to a few hundred KiB ({@value #GAP_KEY}, default 128 KiB)
 * @param threads reads under way at once, at most, for members in several part files or far
 *     apart in one ({@value #THREADS_KEY}, default 4: on the embedded cluster of the
 *     benchmarks, 4 threads read random names faster than 2 or 8, and a dense directory about
 *     as fast as 2 and faster than 8)
 * @param callerOrder hand the members out in the order of the names given (a directory's: in
 *     increasing UTF-8 byte order); by default they are handed out as they arrive, which is by
 *     part file and offset for the members of one read, names not in the archive first
 */
public record BatchRead(long windowBytes, long gapBytes, int threads, boolean callerOrder) {
  /** Configuration key of {@link #windowBytes()} ({@code 64m} style suffixes allowed). */
  public static final String WINDOW_KEY = "hpf.read.batch.window.bytes";
  /** Configuration key of {@link #gapBytes()} ({@code 128k} style suffixes allowed). */
  public static final String GAP_KEY = "hpf.read.batch.gap.bytes";
  /** Configuration key of {@link #threads()}. */
  public static final String THREADS_KEY = "hpf.read.batch.threads";

  private static final long DEFAULT_WINDOW = 64L << 20;
  private static final long DEFAULT_GAP = 128L << 10;
  private static final int DEFAULT_THREADS = 4;

  /**
   * Checks the components.
   *
   * @param windowBytes the most bytes read and not handed out, at least 1
   * @param gapBytes the largest gap read through, at least 0
   * @param threads reads at once, at least 1
   * @param callerOrder whether members come in the order of the names
   * @throws IllegalArgumentException if a component is out of its range
   */
  public BatchRead {
    if (windowBytes < 1 || gapBytes < 0 || threads < 1) {
      throw new IllegalArgumentException("batch read with a window of " + windowBytes
          + " bytes, gaps of " + gapBytes + " bytes and " + threads + " threads");
    }
  }

  /**
   * The defaults: a 64 MiB window, gaps up to 128 KiB read through, 4 threads, members as they
   * arrive.
   *
   * @return the default settings
   */
  public static BatchRead defaults() {
    return new BatchRead(DEFAULT_WINDOW, DEFAULT_GAP, DEFAULT_THREADS, false);
  }

  /**
   * The settings the {@code hpf.read.batch.*} keys of {@code conf} give, defaults for keys not
   * set; members as they arrive.
   *
   * @param conf the configuration to read
   * @return the settings
   */
  public static BatchRead from(Configuration conf) {
    return new BatchRead(conf.getLongBytes(WINDOW_KEY, DEFAULT_WINDOW),
        conf.getLongBytes(GAP_KEY, DEFAULT_GAP), conf.getInt(THREADS_KEY, DEFAULT_THREADS),
        false);
  }

  /**
   * These settings with another window.
   *
   * @param bytes the most bytes read and not yet handed out
   * @return new settings
   */
  public BatchRead withWindowBytes(long bytes) {
    return new BatchRead(bytes, gapBytes, threads, callerOrder);
  }

  /**
   * These settings with another largest gap read through.
   *
   * @param bytes the largest gap, 0 to read only entries that touch
   * @return new settings
   */
  public BatchRead withGapBytes(long bytes) {
    return new BatchRead(windowBytes, bytes, threads, callerOrder);
  }

  /**
   * These settings with another number of threads.
   *
   * @param count reads at once, at most
   * @return new settings
   */
  public BatchRead withThreads(int count) {
    return new BatchRead(windowBytes, gapBytes, count, callerOrder);
  }

  /**
   * These settings handing members out in the order of the names, or as they arrive.
   *
   * @param value true for the order of the names
   * @return new settings
   */
  public BatchRead withCallerOrder(boolean value) {
    return new BatchRead(windowBytes, gapBytes, threads, value);
  }
}
