package org.hpf.internal.write.spill;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.hpf.testing.OtherUser;

/** What another user of this machine could reach below a scratch directory, at one moment. */
final class ScratchExposure {
  private ScratchExposure() {}

  /**
   * Every path at or below {@code dir} with a bit for group or others, with its mode; and, where
   * another user can be run, every path below {@code dir} that user read.
   */
  static List<String> of(Path dir) throws IOException {
    List<String> open = new ArrayList<>();
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
        if (!mode.endsWith("------")) {
          open.add(p + " " + mode);
        }
        if (!p.equals(dir) && OtherUser.available() && OtherUser.canRead(p)) {
          open.add("nobody read " + p);
        }
      }
    }
    return open;
  }
}
