package org.hpf.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/** Copies and removes local directory trees (test archives are copied before each damage). */
public final class LocalTrees {
  private LocalTrees() {}

  /** Replaces {@code to} with a copy of {@code from}. */
  public static void copy(Path from, Path to) throws IOException {
    delete(to);
    try (var walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
          // as `cp -p`: who may read an archive is its directory's mode
          Files.setPosixFilePermissions(target, Files.getPosixFilePermissions(p));
        } else {
          Files.copy(p, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  /** Deletes a tree if it exists. */
  public static void delete(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (var walk = Files.walk(root)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
