package org.hpf;

/**
 * Another writer committed the generation this change was building, first: nothing of this
 * change is in the archive, and the files it wrote are left for the next writer to collect. On
 * an object store, where the lock only keeps honest writers apart, the commit itself decides
 * between two writers; run the change again.
 */
public class ConcurrentCommitException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error about a generation.
   *
   * @param archive the archive
   * @param generation the generation this change would have been
   * @param detail who took it, as far as known
   */
  public ConcurrentCommitException(String archive, long generation, String detail) {
    super(archive + ": generation " + generation + " was committed by another writer first ("
        + detail + "); nothing of this change was committed: run it again");
  }

  /**
   * An error about a change another writer is making at the same time, found before either
   * committed.
   *
   * @param archive the archive
   * @param detail what showed the other writer
   * @param cause the file system's error that showed it
   */
  public ConcurrentCommitException(String archive, String detail, Throwable cause) {
    super(archive + ": another writer is changing the archive at the same time (" + detail
        + "); nothing of this change was committed: run it again", cause);
  }
}
