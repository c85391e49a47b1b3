package org.hpf.cli;

import org.hpf.internal.io.LocalUmask;

/** Who this process is on the local machine, for what {@code hpf extract} restores. */
final class LocalUser {
  private LocalUser() {}

  /** The process's umask, the permission bits its new files do not get. */
  static int umask() {
    return LocalUmask.get();
  }
}
