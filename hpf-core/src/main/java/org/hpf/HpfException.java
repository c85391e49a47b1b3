package org.hpf;

import java.io.IOException;

/** Base of the typed errors hpf reports about archives; each names the file it concerns. */
public class HpfException extends IOException {
  private static final long serialVersionUID = 1L;

  /**
   * An error.
   *
   * @param message what went wrong, naming the file it concerns
   */
  public HpfException(String message) {
    super(message);
  }

  /**
   * An error with a cause.
   *
   * @param message what went wrong, naming the file it concerns
   * @param cause the error that led to it
   */
  public HpfException(String message, Throwable cause) {
    super(message, cause);
  }
}
