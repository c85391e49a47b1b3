package org.hpf.cli;

import org.hpf.HpfException;

/**
 * A member name that extract refuses because its file would land outside the destination
 * directory ({@code ..} components, a leading {@code /}, a symbolic link on the way). hpf's
 * writers never store such names, so the archive was made or changed by something else.
 */
final class UnsafeNameException extends HpfException {
  private static final long serialVersionUID = 1L;

  UnsafeNameException(String name, String destination, String reason) {
    super("refusing to extract '" + name + "': it would be written outside " + destination + " ("
        + reason + "); nothing was extracted");
  }
}
