package org.hpf.internal.write;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.MemberAccess;

/**
 * One file to archive: its member name and where its bytes come from, and its owner, group and
 * mode (null where the file system has none: the writer's default applies).
 */
public record Source(String name, FileSystem fs, Path path, long length, long mtimeMillis,
    MemberAccess access) {
  /** A source whose access the writer's default gives. */
  public Source(String name, FileSystem fs, Path path, long length, long mtimeMillis) {
    this(name, fs, path, length, mtimeMillis, null);
  }

  @Override
  public String toString() {
    return path.toString();
  }
}
