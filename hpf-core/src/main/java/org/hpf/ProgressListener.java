package org.hpf;

/**
 * Receives progress of a long write. Called from the merge threads: implementations must be
 * thread-safe.
 */
public interface ProgressListener {
  /** A listener that ignores everything. */
  ProgressListener NONE = new ProgressListener() {};

  /**
   * The work ahead is known.
   *
   * @param files files to merge
   * @param bytes their bytes
   */
  default void started(long files, long bytes) {}

  /**
   * One member was merged.
   *
   * @param bytes its length
   */
  default void merged(long bytes) {}

  /**
   * A new phase begins.
   *
   * @param name "listing", "merging", "indexing" or "committing"
   */
  default void phase(String name) {}
}
