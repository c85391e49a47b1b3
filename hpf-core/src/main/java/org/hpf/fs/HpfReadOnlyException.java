package org.hpf.fs;

import org.hpf.HpfException;

/** A mutating operation was called on {@code hpf://}, which is read-only. */
public class HpfReadOnlyException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error about an operation.
   *
   * @param operation the operation called
   * @param path the path it was called on
   */
  public HpfReadOnlyException(String operation, Object path) {
    super("hpf:// is read-only: " + operation + " is not supported (" + path + "); change an "
        + "archive with 'hpf append' or 'hpf rm' (or org.hpf.ArchiveWriter)");
  }
}
