package org.hpf;

/**
 * A name would be a file and a directory at once: a member {@code a/b} and a member
 * {@code a/b/c}. Listings and extraction could show only one of them, so writers refuse such a
 * name before they commit anything.
 */
public class NameConflictException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error about two names.
   *
   * @param archive the archive
   * @param file the name that is a file
   * @param below a name below {@code file}, which makes it a directory too
   * @param where which of the two the archive has already, or that both are being added
   */
  public NameConflictException(String archive, String file, String below, String where) {
    super(archive + ": '" + file + "' cannot be both a file and the directory of '" + below
        + "' (" + where + ")");
  }
}
