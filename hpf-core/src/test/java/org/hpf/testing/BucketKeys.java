package org.hpf.testing;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** What a bucket holds, to tell that an operation left it exactly as it was. */
public final class BucketKeys {
  private BucketKeys() {}

  /**
   * Every object below {@code root} with its length, and every directory (marker or prefix),
   * sorted.
   */
  public static SortedSet<String> below(FileSystem fs, Path root) throws IOException {
    SortedSet<String> keys = new TreeSet<>();
    Deque<Path> pending = new ArrayDeque<>();
    pending.push(root);
    while (!pending.isEmpty()) {
      for (FileStatus status : fs.listStatus(pending.pop())) {
        keys.add(status.getPath() + (status.isDirectory() ? "/" : " " + status.getLen()));
        if (status.isDirectory()) {
          pending.push(status.getPath());
        }
      }
    }
    return keys;
  }

  /** The files below {@code root}, by their paths relative to it ("_manifests/manifest-..."). */
  public static SortedSet<String> files(FileSystem fs, Path root) throws IOException {
    String prefix = fs.makeQualified(root) + "/";
    SortedSet<String> files = new TreeSet<>();
    org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> all =
        fs.listFiles(root, true);
    while (all.hasNext()) {
      files.add(all.next().getPath().toString().substring(prefix.length()));
    }
    return files;
  }
}
