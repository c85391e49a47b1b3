package org.hpf;

/** A create was asked to write where an archive (or any file) already exists. */
public class ArchiveExistsException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error about an archive.
   *
   * @param archive the path that exists
   */
  public ArchiveExistsException(String archive) {
    super(archive + " already exists; choose another path or remove it first");
  }

  /**
   * An error about a path that holds what a create that never committed left, where recovery
   * removes that.
   *
   * @param archive the path
   * @return the error
   */
  public static ArchiveExistsException ofUncommittedCreate(String archive) {
    return new ArchiveExistsException(archive + " holds what a create that never committed "
        + "left: hpf recover removes it; then create again", true);
  }

  private ArchiveExistsException(String message, boolean whole) {
    super(message);
  }
}
