package org.hpf.internal.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * Tells symbolic links among listed sources apart. Hadoop's local file system lists a link as
 * its target (or drops it, when dangling), so local paths are asked with {@code lstat}; other
 * file systems report links in their listings ({@link FileStatus#isSymlink()}).
 */
final class SymbolicLinks {
  /** What a listed entry is, as far as links go. */
  enum Kind { NONE, TO_FILE, TO_DIRECTORY, DANGLING }

  private SymbolicLinks() {}

  static Kind kind(FileSystem fs, FileStatus status) throws IOException {
    if (fs instanceof RawLocalFileSystem local) {
      java.nio.file.Path file = local.pathToFile(status.getPath()).toPath();
      if (!Files.isSymbolicLink(file)) {
        return Kind.NONE;
      }
      if (!Files.exists(file)) {
        return Kind.DANGLING;
      }
      return Files.isDirectory(file) ? Kind.TO_DIRECTORY : Kind.TO_FILE;
    }
    if (!status.isSymlink()) {
      return Kind.NONE;
    }
    try {
      return fs.getFileStatus(status.getPath()).isDirectory() ? Kind.TO_DIRECTORY : Kind.TO_FILE;
    } catch (FileNotFoundException e) {
      return Kind.DANGLING;
    }
  }

  /** A local directory's path with every link resolved, or null elsewhere. */
  static java.nio.file.Path realPath(FileSystem fs, Path dir) throws IOException {
    if (fs instanceof RawLocalFileSystem local) {
      return local.pathToFile(dir).toPath().toRealPath();
    }
    return null;
  }
}
