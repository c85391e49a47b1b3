package org.hpf;

/** Another writer holds the archive's lock. */
public class ArchiveLockedException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error about an archive.
   *
   * @param archive the archive
   * @param holder who holds the lock: host, process and operation, as its lock file says
   */
  public ArchiveLockedException(String archive, String holder) {
    this(archive, holder, false);
  }

  /**
   * An error about an archive, whose holder may be a writer of this very process (then
   * breaking the lock is no remedy: that writer is alive).
   *
   * @param archive the archive
   * @param holder who holds the lock, as its lock file says
   * @param thisProcess whether the holder is a writer in this process
   */
  public ArchiveLockedException(String archive, String holder, boolean thisProcess) {
    super(thisProcess
        ? archive + " is locked by another writer in this process (" + holder + "); close that"
            + " writer first"
        : archive + " is locked by " + holder + "; if that writer is no longer running, "
            + "recover with breakLock (hpf recover --break-lock)");
  }
}
