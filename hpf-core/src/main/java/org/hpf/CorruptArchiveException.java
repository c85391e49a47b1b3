package org.hpf;

/** Bytes of an archive file are not what the format says they must be. */
public class CorruptArchiveException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * Damage found at a place in a file.
   *
   * @param file the file
   * @param offset where in it
   * @param problem what is wrong
   */
  public CorruptArchiveException(String file, long offset, String problem) {
    super(file + " at offset " + offset + ": " + problem);
  }

  /**
   * Damage found while decoding a file.
   *
   * @param file the file
   * @param problem what is wrong
   * @param cause the error the damage caused
   */
  public CorruptArchiveException(String file, String problem, Throwable cause) {
    super(file + ": " + problem, cause);
  }
}
