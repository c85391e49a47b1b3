package org.hpf;

/** A file was written by a format version this reader does not support. */
public class ArchiveVersionException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error about a file.
   *
   * @param file the file
   * @param actual the version it has
   * @param minSupported the oldest version this code reads
   * @param maxSupported the newest version this code reads
   */
  public ArchiveVersionException(String file, int actual, int minSupported, int maxSupported) {
    super(file + ": format version " + actual + " is too "
        + (actual < minSupported ? "old" : "new") + " (this reader supports "
        + minSupported + ".." + maxSupported + ")");
  }
}
