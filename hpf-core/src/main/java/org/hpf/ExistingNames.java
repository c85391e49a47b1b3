package org.hpf;

/** What adding a tree does with a name the archive already has. */
public enum ExistingNames {
  /** Refuse the whole change ({@link org.hpf.NameExistsException}). */
  FAIL,
  /** The new bytes replace the member. */
  REPLACE,
  /**
   * Leave the member as it is when the source has the same length and CRC32C (the way to finish
   * an append that was interrupted, or rolled forward in part); a name whose source differs
   * still refuses the whole change.
   */
  SKIP_IDENTICAL
}
