package org.hpf;

/** A value does not fit a field of the format (member size, part count, ...). */
public class LimitExceededException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error that names the limit.
   *
   * @param message which limit, and the value that exceeds it
   */
  public LimitExceededException(String message) {
    super(message);
  }
}
