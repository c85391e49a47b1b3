package org.hpf;

/** Two different names share all 128 bits of their hash, which the index cannot represent. */
public class HashCollisionException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error that names both names.
   *
   * @param message what collided
   */
  public HashCollisionException(String message) {
    super(message);
  }
}
