package org.hpf.cli;

/**
 * The mode {@code hpf extract} gives a file, after tar's rules: without
 * {@code --preserve-permissions} the recorded read, write and execute bits less the umask;
 * with it the recorded mode exactly, except that setuid and setgid stay only on a file whose
 * recorded owner and group were restored (POSIX pax's rule: a program must not become setuid
 * to whoever extracted it).
 *
 * @param preserve whether the recorded mode is restored exactly (else the umask applies)
 * @param umask the bits new files do not get at the destination
 */
record RestoredModes(boolean preserve, int umask) {
  static final int PERMISSION_BITS = 0777;
  static final int SET_ID_BITS = 06000;
  static final int STICKY_BIT = 01000;

  /** The mode of a file whose member recorded {@code recorded}. */
  int of(int recorded, boolean ownerRestored) {
    if (!preserve) {
      return recorded & PERMISSION_BITS & ~umask;
    }
    int kept = PERMISSION_BITS | STICKY_BIT | (ownerRestored ? SET_ID_BITS : 0);
    return recorded & kept;
  }
}
