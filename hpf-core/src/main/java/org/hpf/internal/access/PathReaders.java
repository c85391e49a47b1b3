package org.hpf.internal.access;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Who may pass through the directories above a path, from the file system's root down: reading
 * a file needs every directory on its path. Remembers each directory it looked at, so roots
 * that share ancestors cost one status call per directory.
 */
public final class PathReaders {
  private final Map<Path, Readers> through = new HashMap<>();

  /** Who may reach the entries of directory {@code dir}: pass through it and its ancestors. */
  public Readers through(FileSystem fs, Path dir) throws IOException {
    Path qualified = fs.makeQualified(dir);
    Readers known = through.get(qualified);
    if (known != null) {
      return known;
    }
    Readers above = qualified.getParent() == null ? Readers.EVERYONE
        : through(fs, qualified.getParent());
    Readers readers = above.and(FileAccess.directoryReaders(
        FileAccess.of(fs, fs.getFileStatus(qualified))));
    through.put(qualified, readers);
    return readers;
  }
}
