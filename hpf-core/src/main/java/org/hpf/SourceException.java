package org.hpf;

/** A source file to archive is missing, unreadable or changed while it was being read. */
public class SourceException extends HpfException {
  private static final long serialVersionUID = 1L;

  public SourceException(String message) {
    super(message);
  }

  public SourceException(String message, Throwable cause) {
    super(message, cause);
  }
}
