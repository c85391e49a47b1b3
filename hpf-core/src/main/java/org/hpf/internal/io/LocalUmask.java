package org.hpf.internal.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;

/** The umask of this process, which limits the modes of the local files it creates. */
public final class LocalUmask {
  /** The umask where the process cannot tell (not Linux): the usual one. */
  public static final int USUAL = 022;

  private LocalUmask() {}

  /**
   * The process's umask, the permission bits its new files do not get; Java has no call for it,
   * so it is read from Linux's {@code /proc/self/status}.
   */
  public static int get() {
    try {
      for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
        if (line.startsWith("Umask:")) {
          return Integer.parseInt(line.substring("Umask:".length()).trim(), 8);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or a kernel before 4.7
    }
    return USUAL;
  }
}
