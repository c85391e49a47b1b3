package org.hpf;

/** A file was written by a format version this reader does not support. */
public class ArchiveVersionException extends HpfException {
  private static final long serialVersionUID = 1L;

  public ArchiveVersionException(String file, int actual, int minSupported, int maxSupported) {
    super(file + ": format version " + actual + " is too "
        + (actual < minSupported ? "old" : "new") + " (this reader supports "
        + minSupported + ".." + maxSupported + ")");
  }
}
