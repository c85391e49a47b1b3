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
}
