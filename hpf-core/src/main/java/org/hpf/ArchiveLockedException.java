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
    super(archive + " is locked by " + holder + "; if that writer is no longer running, "
        + "recover with breakLock (hpf recover --break-lock)");
  }
}
