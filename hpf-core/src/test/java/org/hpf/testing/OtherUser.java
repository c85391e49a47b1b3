package org.hpf.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Another local user, the unprivileged {@code nobody}, reading through {@code runuser}: where the
 * tests run as root, it tries what any user of the machine could try. No user is added.
 */
public final class OtherUser {
  private static final String NAME = "nobody";
  private static final boolean AVAILABLE = System.getProperty("user.name").equals("root")
      && Files.isExecutable(Path.of("/usr/sbin/runuser")) && run("true") == 0;

  private OtherUser() {}

  /** Whether the tests run as root, with {@code runuser} and the user {@code nobody}. */
  public static boolean available() {
    return AVAILABLE;
  }

  /** Whether {@code nobody} may read {@code path}: a file's bytes or a directory's names. */
  public static boolean canRead(Path path) {
    return Files.isDirectory(path) ? run("ls", path.toString()) == 0
        : run("cat", path.toString()) == 0;
  }

  private static int run(String... command) {
    List<String> all = new java.util.ArrayList<>(List.of("/usr/sbin/runuser", "-u", NAME, "--"));
    all.addAll(List.of(command));
    try {
      Process p = new ProcessBuilder(all).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return -1;
      }
      return p.exitValue();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }
}
