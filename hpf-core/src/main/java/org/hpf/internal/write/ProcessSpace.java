package org.hpf.internal.write;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a process id means one process: one boot of one machine (its kernel's boot id) and one
 * pid namespace (containers on one machine share the boot id, not the pid namespace). The host
 * name cannot tell that: containers may share one, and it may fall back to a placeholder. Null
 * parts are unknown (not Linux, or /proc unreadable); a pid is then judged by nobody.
 *
 * @param bootId the kernel's boot id, or null
 * @param pidNamespace the pid namespace's identity ({@code pid:[inode]}), or null
 */
record ProcessSpace(String bootId, String pidNamespace) {
  private static final ProcessSpace CURRENT = new ProcessSpace(
      readBootId(), readPidNamespace());

  /** This process's. */
  static ProcessSpace current() {
    return CURRENT;
  }

  /** True when both are known and equal: a pid recorded in one then names the same process. */
  boolean sameAs(ProcessSpace other) {
    return bootId != null && pidNamespace != null && bootId.equals(other.bootId)
        && pidNamespace.equals(other.pidNamespace);
  }

  private static String readBootId() {
    try {
      String id = readKernelFile("/proc/sys/kernel/random/boot_id");
      return id.isEmpty() ? null : id;
    } catch (IOException | SecurityException e) {
      return null;
    }
  }

  /**
   * A file the kernel makes up when read, read to its end: such files report no size, and
   * reading them by their size can stop short.
   */
  static String readKernelFile(String path) throws IOException {
    try (InputStream in = Files.newInputStream(Path.of(path))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
  }

  private static String readPidNamespace() {
    try {
      return Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return null;
    }
  }
}
