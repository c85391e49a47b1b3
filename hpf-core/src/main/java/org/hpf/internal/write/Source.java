package org.hpf.internal.write;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** One file to archive: its member name and where its bytes come from. */
public record Source(String name, FileSystem fs, Path path, long length, long mtimeMillis) {
  @Override
  public String toString() {
    return path.toString();
  }
}
