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
    this(archive, "already exists; choose another path or remove it first");
  }

  private ArchiveExistsException(String archive, String why) {
    super(archive + " " + why);
  }

  /**
   * An error about a path that holds what a create that never committed left, which recovery
   * removes (or, from a journal, completes).
   *
   * @param archive the path
   * @param journaled whether the store keeps a journal that recovery may commit instead
   * @return the error
   */
  public static ArchiveExistsException ofUncommittedCreate(String archive, boolean journaled) {
    return new ArchiveExistsException(archive, "holds what a create that never committed "
        + "left: hpf recover " + (journaled ? "commits what its journal holds or removes it"
        : "removes it") + "; then create again");
  }
}
