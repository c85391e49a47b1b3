package org.hpf;

import java.io.IOException;

/** Base of the typed errors hpf reports about archives; each names the file it concerns. */
public class HpfException extends IOException {
  private static final long serialVersionUID = 1L;

  public HpfException(String message) {
    super(message);
  }

  public HpfException(String message, Throwable cause) {
    super(message, cause);
  }
}
