package org.hpf.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.SourceException;
import org.hpf.format.MemberNames;

/**
 * Walks source roots and yields their files one at a time, holding only the directories on the
 * current path: a file root becomes one member named by its file name, a directory root
 * contributes every file below it named by its path relative to the root. Names are checked as
 * they come ({@link org.hpf.InvalidNameException}); within each root they come in
 * {@link MemberNames#ORDER}, so one merge thread writes a tree's members in name order.
 */
final class SourceWalker implements Iterator<Source> {
  private final Configuration conf;
  private final Iterator<Path> roots;
  /** Open directory listings on the current path, with the name prefix of each. */
  private final Deque<Listing> stack = new ArrayDeque<>();
  private Source next;
  private int rootIndex = -1;

  private record Listing(FileSystem fs, Iterator<FileStatus> children, String prefix) {}

  /**
   * A directory's children, ordered so that the walk yields names in {@link MemberNames#ORDER}:
   * a directory sorts as its name followed by '/', since every name below it starts so. Holds
   * one directory's listing at a time per level.
   */
  private static Iterator<FileStatus> children(FileSystem fs, Path dir) throws IOException {
    FileStatus[] children = fs.listStatus(dir);
    java.util.Arrays.sort(children, java.util.Comparator.comparing(
        (FileStatus c) -> c.isDirectory() ? c.getPath().getName() + "/" : c.getPath().getName(),
        MemberNames.ORDER));
    return java.util.Arrays.asList(children).iterator();
  }

  SourceWalker(Configuration conf, List<Path> roots) {
    this.conf = conf;
    this.roots = roots.iterator();
  }

  /** Index (in the roots list) of the root the last source came from. */
  int rootIndex() {
    return rootIndex;
  }

  @Override
  public boolean hasNext() {
    try {
      while (next == null) {
        if (stack.isEmpty()) {
          if (!roots.hasNext()) {
            return false;
          }
          startRoot(roots.next());
          continue;
        }
        Listing top = stack.peek();
        if (!top.children.hasNext()) {
          stack.pop();
          continue;
        }
        FileStatus child = top.children.next();
        String name = top.prefix + child.getPath().getName();
        if (child.isDirectory()) {
          stack.push(new Listing(top.fs, children(top.fs, child.getPath()), name + "/"));
        } else if (child.isFile()) {
          next = source(top.fs, child, name);
        }
      }
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void startRoot(Path root) throws IOException {
    rootIndex++;
    FileSystem fs = root.getFileSystem(conf);
    if (fs instanceof LocalFileSystem local) {
      fs = local.getRaw(); // no .crc side files for sources
    }
    FileStatus status;
    try {
      status = fs.getFileStatus(root);
    } catch (FileNotFoundException e) {
      throw new UncheckedIOException(new SourceException("source does not exist: " + root));
    }
    if (status.isDirectory()) {
      stack.push(new Listing(fs, children(fs, status.getPath()), ""));
    } else {
      next = source(fs, status, status.getPath().getName());
    }
  }

  private static Source source(FileSystem fs, FileStatus status, String name) throws IOException {
    MemberNames.check(name);
    return new Source(name, fs, status.getPath(), status.getLen(), status.getModificationTime());
  }

  @Override
  public Source next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Source result = next;
    next = null;
    return result;
  }
}
