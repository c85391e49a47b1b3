package org.hpf;

/** Receives progress of a long write; called from merge threads, so implementations must be thread-safe. */
public interface ProgressListener {
  ProgressListener NONE = new ProgressListener() {};

  /** The work ahead: files and bytes to merge. */
  default void started(long files, long bytes) {}

  /** One member was merged. */
  default void merged(long bytes) {}

  /** A new phase begins ("merging", "indexing", "committing"). */
  default void phase(String name) {}
}
