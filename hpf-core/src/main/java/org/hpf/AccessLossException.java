package org.hpf;

/**
 * A create or an append would leave users unable to read, through the archive, files they
 * could read before: the archive's directory gets access no broader than every source allows,
 * and here that takes some owners' own files from them (for an append, possibly their members
 * archived so far). Nothing was written. Archive each owner's files into an
 * archive of their own, or allow the loss ({@link WriteSettings.Builder#allowAccessLoss}).
 */
public class AccessLossException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error.
   *
   * @param message who would lose access to what, and how to keep it
   */
  public AccessLossException(String message) {
    super(message);
  }
}
