package org.hpf;

/**
 * This writer's lock was taken over (its holder was judged gone, for example past the HDFS
 * lease's soft limit) or broken: the writer commits and deletes nothing more. Members it had
 * journaled before are the new holder's to recover, as a dead writer's are.
 */
public class LockLostException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error about an archive.
   *
   * @param archive the archive
   * @param detail what shows that the lock is lost: who holds it now, or the file system's error
   */
  public LockLostException(String archive, String detail) {
    super(archive + ": lock lost: this writer's lock was taken over or broken (" + detail
        + "); it committed nothing more");
  }

  /**
   * An error about an archive, with the file system's error that revealed it.
   *
   * @param archive the archive
   * @param detail what shows that the lock is lost
   * @param cause the error that revealed it
   */
  public LockLostException(String archive, String detail, Throwable cause) {
    this(archive, detail);
    initCause(cause);
  }
}
