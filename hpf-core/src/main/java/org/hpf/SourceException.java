package org.hpf;

/** A source file to archive is missing, unreadable or changed while it was being read. */
public class SourceException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error about a source.
   *
   * @param message which source, and what is wrong with it
   */
  public SourceException(String message) {
    super(message);
  }

  /**
   * An error about a source.
   *
   * @param message which source, and what is wrong with it
   * @param cause the file system's error
   */
  public SourceException(String message, Throwable cause) {
    super(message, cause);
  }
}
