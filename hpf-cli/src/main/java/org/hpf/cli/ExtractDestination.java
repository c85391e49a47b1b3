package org.hpf.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * Where {@code hpf extract} writes members: files under a directory, each created with its
 * parent directories, filled, and given the member's modification time; a file whose member
 * fails (a checksum) is removed. Safe for many threads at once.
 */
abstract class ExtractDestination {
  /** Parent directories made (or found) so far: each is made once. */
  private final Set<Path> made = ConcurrentHashMap.newKeySet();
  final boolean overwrite;

  private ExtractDestination(boolean overwrite) {
    this.overwrite = overwrite;
  }

  /**
   * The local file system through {@code java.nio}: Hadoop's local file system sets each new
   * file's and directory's permission by running {@code chmod} where Hadoop's native library is
   * missing, a process per file. Elsewhere Hadoop's {@code FileSystem}.
   */
  static ExtractDestination of(FileSystem fs, boolean overwrite) {
    return fs instanceof RawLocalFileSystem ? new Local(overwrite) : new Hadoop(fs, overwrite);
  }

  abstract boolean exists(Path target) throws IOException;

  /** Writes {@code in} to {@code target} (the file of {@code member}) and sets its time. */
  void write(String member, Path target, InputStream in, long mtimeMillis) throws IOException {
    Path parent = target.getParent();
    if (!made.contains(parent)) {
      mkdirs(parent, member);
      made.add(parent);
    }
    OutputStream file = create(target); // outside the try: a file in the way is not removed
    boolean done = false;
    try (OutputStream out = file) {
      in.transferTo(out);
      done = true;
    } finally {
      if (!done) {
        delete(target);
      }
    }
    setTime(target, mtimeMillis);
  }

  abstract void mkdirs(Path dir, String member) throws IOException;

  abstract OutputStream create(Path target) throws IOException;

  abstract void setTime(Path target, long mtimeMillis) throws IOException;

  abstract void delete(Path target) throws IOException;

  static org.apache.hadoop.fs.FileAlreadyExistsException inTheWay(Path dir, String member) {
    return new org.apache.hadoop.fs.FileAlreadyExistsException("cannot extract '" + member
        + "': a file is in the way of the directory " + dir);
  }

  static org.apache.hadoop.fs.FileAlreadyExistsException alreadyThere(Path target) {
    return new org.apache.hadoop.fs.FileAlreadyExistsException(target
        + " exists; use --force to overwrite it");
  }

  private static final class Local extends ExtractDestination {
    Local(boolean overwrite) {
      super(overwrite);
    }

    private static java.nio.file.Path local(Path path) {
      return Paths.get(path.toUri());
    }

    @Override
    boolean exists(Path target) {
      return Files.exists(local(target), LinkOption.NOFOLLOW_LINKS);
    }

    @Override
    void mkdirs(Path dir, String member) throws IOException {
      try {
        Files.createDirectories(local(dir));
      } catch (java.nio.file.FileSystemException e) {
        // A file where a directory should be: "exists" for the directory itself, "not a
        // directory" for one below it.
        for (java.nio.file.Path p = local(dir); p != null; p = p.getParent()) {
          if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)
              && !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            throw inTheWay(dir, member);
          }
        }
        throw e;
      }
    }

    @Override
    OutputStream create(Path target) throws IOException {
      try {
        // Never through a symbolic link: the file is created, or replaced where it is.
        return overwrite
            ? Files.newOutputStream(local(target), StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS)
            : Files.newOutputStream(local(target), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE);
      } catch (FileAlreadyExistsException e) {
        throw alreadyThere(target);
      }
    }

    @Override
    void setTime(Path target, long mtimeMillis) throws IOException {
      Files.setLastModifiedTime(local(target), FileTime.fromMillis(mtimeMillis));
    }

    @Override
    void delete(Path target) throws IOException {
      Files.deleteIfExists(local(target));
    }
  }

  private static final class Hadoop extends ExtractDestination {
    private final FileSystem fs;

    Hadoop(FileSystem fs, boolean overwrite) {
      super(overwrite);
      this.fs = fs;
    }

    @Override
    boolean exists(Path target) throws IOException {
      return fs.exists(target);
    }

    @Override
    void mkdirs(Path dir, String member) throws IOException {
      try {
        if (fs.mkdirs(dir)) {
          return;
        }
      } catch (org.apache.hadoop.fs.FileAlreadyExistsException
          | ParentNotDirectoryException e) {
        // reported below
      }
      throw inTheWay(dir, member);
    }

    @Override
    OutputStream create(Path target) throws IOException {
      try {
        return fs.create(target, overwrite);
      } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
        throw alreadyThere(target);
      }
    }

    @Override
    void setTime(Path target, long mtimeMillis) throws IOException {
      fs.setTimes(target, mtimeMillis, -1);
    }

    @Override
    void delete(Path target) throws IOException {
      try {
        fs.delete(target, false);
      } catch (FileNotFoundException e) {
        // nothing to remove
      }
    }
  }
}
