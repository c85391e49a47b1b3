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
  private final PhaseClock clock;
  private final SourceListing listing;
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
  private record Listing(FileSystem fs, Iterator<SourceListing.Entry> children, String prefix,
      java.nio.file.Path real, Readers through) {}

  SourceWalker(Configuration conf, List<Path> roots) {
    this(conf, roots, SymlinkPolicy.SKIP, new SourceLinks());
  }

  /** @param links counts the links this walk meets */
  SourceWalker(Configuration conf, List<Path> roots, SymlinkPolicy symlinks, SourceLinks links) {
    this(conf, roots, symlinks, links, PhaseClock.start());
  }

  /** @param clock takes the time of listings, statuses and owner names */
  SourceWalker(Configuration conf, List<Path> roots, SymlinkPolicy symlinks, SourceLinks links,
      PhaseClock clock) {
    this.conf = conf;
    this.roots = roots.iterator();
    this.symlinks = symlinks;
    this.links = links;
    this.clock = clock;
    this.listing = new SourceListing(clock);
  }

  /**
   * Makes the walk find, for each source, who may read it: the directories above each root are
   * asked once each; the entries' owners, groups and modes come with the listing.
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
        SourceListing.Entry entry = top.children.next();
        FileStatus child = entry.status();
        String name = top.prefix + child.getPath().getName();
        SymbolicLinks.Kind link = entry.link();
        if (link != SymbolicLinks.Kind.NONE && !follow(child, link)) {
          continue;
        }
        if (link == SymbolicLinks.Kind.TO_DIRECTORY || (link == SymbolicLinks.Kind.NONE
            && child.isDirectory())) {
          java.nio.file.Path real = realPath(top.fs, child.getPath());
          checkNoLoop(child, real);
          MemberAccess dirAccess = link == SymbolicLinks.Kind.NONE ? entry.access()
              : accessOf(top.fs, target(top.fs, child));
          stack.push(new Listing(top.fs, listing.list(top.fs, child.getPath()).iterator(),
              name + "/", real, through(top, dirAccess)));
        } else if (link == SymbolicLinks.Kind.TO_FILE) {
          FileStatus target = target(top.fs, child);
          next = source(top.fs, target, accessOf(top.fs, target), name, top.through);
        } else if (child.isFile()) {
          next = source(top.fs, child, entry.access(), name, top.through);
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
    MemberAccess access = accessOf(fs, status);
    if (status.isDirectory()) {
      stack.push(new Listing(fs, listing.list(fs, status.getPath()).iterator(), "",
          realPath(fs, status.getPath()),
          above == null ? null : above.and(FileAccess.directoryReaders(access))));
    } else {
      next = source(fs, status, access, status.getPath().getName(), above);
    }
  }

  /** Who may reach the entries of a directory of access {@code dir}, inside {@code parent}. */
  private static Readers through(Listing parent, MemberAccess dir) {
    return parent.through == null ? null
        : parent.through.and(FileAccess.directoryReaders(dir));
  }

  /** The status of a followed link's target. */
  private FileStatus target(FileSystem fs, FileStatus link) throws IOException {
    try (PhaseClock.Section s = clock.in(Phase.STAT)) {
      return fs.getFileStatus(link.getPath());
    }
  }

  /**
   * The access of a root or a followed link's target, which no listing gave: a status of its
   * own. Gone since its status was taken: a source that disappeared before it was read.
   */
  private MemberAccess accessOf(FileSystem fs, FileStatus status) throws IOException {
    try (PhaseClock.Section s = clock.in(Phase.OWNERS)) {
      return FileAccess.of(fs, status);
    } catch (java.nio.file.NoSuchFileException | FileNotFoundException e) {
      throw new SourceException("source disappeared before it was read: " + status.getPath(),
          e);
    }
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

  /**
   * A directory's path with every link resolved, for loop checks; null where no link is
   * followed, so no loop can be.
   */
  private java.nio.file.Path realPath(FileSystem fs, Path dir) throws IOException {
    return symlinks == SymlinkPolicy.FOLLOW ? SymbolicLinks.realPath(fs, dir) : null;
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

  /**
   * A source of {@code access}; {@code through} is who may reach its directory's entries (null:
   * untracked).
   */
  private Source source(FileSystem fs, FileStatus status, MemberAccess access, String name,
      Readers through) throws IOException {
    MemberNames.check(name);
    if (through != null) {
      nextAccess = access;
      nextReaders = through.and(FileAccess.fileReaders(access));
    }
    return new Source(name, fs, status.getPath(), status.getLen(),
        status.getModificationTime(), access);
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
