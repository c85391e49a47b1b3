package org.hpf;

/** Bytes of an archive file are not what the format says they must be. */
public class CorruptArchiveException extends HpfException {
  private static final long serialVersionUID = 1L;

  public CorruptArchiveException(String file, long offset, String problem) {
    super(file + " at offset " + offset + ": " + problem);
  }

  public CorruptArchiveException(String file, String problem, Throwable cause) {
    super(file + ": " + problem, cause);
  }
}
