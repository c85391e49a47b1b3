package org.hpf.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;

/** Who this process is on the local machine, for what {@code hpf extract} restores. */
final class LocalUser {
  /** The umask where the process cannot tell (not Linux): the usual one. */
  static final int USUAL_UMASK = 022;

  private LocalUser() {}

  /**
   * The process's umask, the permission bits its new files do not get; Java has no call for it,
   * so it is read from Linux's {@code /proc/self/status}.
   */
  static int umask() {
    try {
      for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
        if (line.startsWith("Umask:")) {
          return Integer.parseInt(line.substring("Umask:".length()).trim(), 8);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or a kernel before 4.7
    }
    return USUAL_UMASK;
  }
}
