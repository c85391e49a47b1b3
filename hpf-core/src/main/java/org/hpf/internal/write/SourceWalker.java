package org.hpf.internal.write;

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
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.hpf.MemberAccess;
import org.hpf.SourceException;
import org.hpf.SymlinkPolicy;
import org.hpf.internal.access.FileAccess;
import org.hpf.internal.access.PathReaders;
import org.hpf.internal.access.Readers;
import org.hpf.internal.format.MemberNames;

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
  private final SymlinkPolicy symlinks;
  private final SourceLinks links;
  /** Open directory listings on the current path, with the name prefix of each. */
  private final Deque<Listing> stack = new ArrayDeque<>();
  private Source next;
  private int rootIndex = -1;
  /** Finds who may read each source, when asked to (else null). */
  private PathReaders pathReaders;
  private MemberAccess nextAccess;
  private Readers nextReaders;

  /**
   * A directory being walked; {@code real} is its resolved local path, for loop checks;
   * {@code through} who may reach its entries (null when readers are not tracked).
   */
  private record Listing(FileSystem fs, Iterator<FileStatus> children, String prefix,
      java.nio.file.Path real, Readers through) {}

  /**
   * A directory's children, ordered so that the walk yields names in {@link MemberNames#ORDER}:
   * a directory sorts as its name followed by '/', since every name below it starts so. Holds
   * one directory's listing at a time per level.
   */
  private static Iterator<FileStatus> children(FileSystem fs, Path dir) throws IOException {
    FileStatus[] children = fs instanceof RawLocalFileSystem local ? localChildren(local, dir)
        : fs.listStatus(dir);
    java.util.Arrays.sort(children, java.util.Comparator.comparing(
        (FileStatus c) -> c.isDirectory() ? c.getPath().getName() + "/" : c.getPath().getName(),
        MemberNames.ORDER));
    return java.util.Arrays.asList(children).iterator();
  }

  /** Walks with the default {@link SymlinkPolicy#SKIP}, counting nothing. */
  /**
   * A local directory's entries, dangling links included: Hadoop's local listing drops those
   * without a word (it cannot stat their targets), and the walk must report them.
   */
  private static FileStatus[] localChildren(RawLocalFileSystem fs, Path dir) throws IOException {
    java.util.List<FileStatus> children = new java.util.ArrayList<>();
    try (java.nio.file.DirectoryStream<java.nio.file.Path> entries =
        java.nio.file.Files.newDirectoryStream(fs.pathToFile(dir).toPath())) {
      for (java.nio.file.Path entry : entries) {
        Path child = new Path(dir, new Path(null, null, entry.getFileName().toString()));
        try {
          children.add(fs.getFileStatus(child));
        } catch (FileNotFoundException e) {
          if (java.nio.file.Files.isSymbolicLink(entry)) {
            children.add(new FileStatus(0, false, 0, 0, 0, child));
          } // else: removed since the listing, as a listing taken a moment later would show
        }
      }
    } catch (java.nio.file.NoSuchFileException e) {
      throw new FileNotFoundException("directory disappeared while it was walked: " + dir);
    }
    return children.toArray(new FileStatus[0]);
  }

  SourceWalker(Configuration conf, List<Path> roots) {
    this(conf, roots, SymlinkPolicy.SKIP, new SourceLinks());
  }

  /** @param links counts the links this walk meets */
  SourceWalker(Configuration conf, List<Path> roots, SymlinkPolicy symlinks, SourceLinks links) {
    this.conf = conf;
    this.roots = roots.iterator();
    this.symlinks = symlinks;
    this.links = links;
  }

  /**
   * Makes the walk find, for each source, its owner, group and mode and who may read it (one
   * more status call per local file and directory; none on HDFS, whose listings carry them).
   */
  SourceWalker trackingReaders() {
    pathReaders = new PathReaders();
    return this;
  }

  /** The owner, group and mode of the last source (when tracking readers; null: unknown). */
  MemberAccess lastAccess() {
    return nextAccess;
  }

  /** Who may read the last source: pass through its directories and read it. */
  Readers lastReaders() {
    return nextReaders;
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
        SymbolicLinks.Kind link = SymbolicLinks.kind(top.fs, child);
        if (link != SymbolicLinks.Kind.NONE && !follow(child, link)) {
          continue;
        }
        if (link == SymbolicLinks.Kind.TO_DIRECTORY || (link == SymbolicLinks.Kind.NONE
            && child.isDirectory())) {
          java.nio.file.Path real = SymbolicLinks.realPath(top.fs, child.getPath());
          checkNoLoop(child, real);
          FileStatus dir = link == SymbolicLinks.Kind.NONE ? child
              : top.fs.getFileStatus(child.getPath());
          stack.push(new Listing(top.fs, children(top.fs, child.getPath()), name + "/", real,
              through(top, dir)));
        } else if (link == SymbolicLinks.Kind.TO_FILE) {
          next = source(top.fs, top.fs.getFileStatus(child.getPath()), name, top.through);
        } else if (child.isFile()) {
          next = source(top.fs, child, name, top.through);
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
    Path parent = status.getPath().getParent();
    Readers above = pathReaders == null ? null
        : parent == null ? Readers.EVERYONE : pathReaders.through(fs, parent);
    if (status.isDirectory()) {
      stack.push(new Listing(fs, children(fs, status.getPath()), "",
          SymbolicLinks.realPath(fs, status.getPath()),
          above == null ? null : above.and(FileAccess.directoryReaders(FileAccess.of(fs, status)))));
    } else {
      next = source(fs, status, status.getPath().getName(), above);
    }
  }

  /** Who may reach the entries of {@code dir}, inside the directory {@code parent}. */
  private Readers through(Listing parent, FileStatus dir) throws IOException {
    return parent.through == null ? null
        : parent.through.and(FileAccess.directoryReaders(FileAccess.of(parent.fs, dir)));
  }

  /** Applies the policy to a link; true when the walk follows it. */
  private boolean follow(FileStatus child, SymbolicLinks.Kind link) throws SourceException {
    if (link == SymbolicLinks.Kind.DANGLING) {
      if (symlinks == SymlinkPolicy.FAIL) {
        throw new SourceException("dangling symbolic link among the sources (its target does "
            + "not exist): " + child.getPath());
      }
      links.dangling(child.getPath().toString());
      return false;
    }
    switch (symlinks) {
      case FAIL:
        throw new SourceException("symbolic link among the sources: " + child.getPath()
            + " (use --symlinks follow to archive its target, or skip to leave it out)");
      case SKIP:
        links.skipped();
        return false;
      default:
        links.followed();
        return true;
    }
  }

  /** Fails when a followed link leads back to a directory the walk is already inside. */
  private void checkNoLoop(FileStatus child, java.nio.file.Path real) throws SourceException {
    if (real == null) {
      return;
    }
    for (Listing open : stack) {
      if (real.equals(open.real())) {
        throw new SourceException("symbolic link loop: " + child.getPath() + " leads to "
            + real + ", which contains it");
      }
    }
  }

  /** A source; {@code through} is who may reach its directory's entries (null: untracked). */
  private Source source(FileSystem fs, FileStatus status, String name, Readers through)
      throws IOException {
    MemberNames.check(name);
    MemberAccess access;
    try {
      access = FileAccess.of(fs, status);
    } catch (java.nio.file.NoSuchFileException | FileNotFoundException e) {
      throw new SourceException("source disappeared before it was read: " + status.getPath(), e);
    }
    if (through != null) {
      nextAccess = access;
      nextReaders = through.and(FileAccess.fileReaders(access));
    }
    return new Source(name, fs, status.getPath(), status.getLen(), status.getModificationTime(),
        access);
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
