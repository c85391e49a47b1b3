package org.hpf.internal.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.hpf.MemberAccess;
import org.hpf.internal.access.FileAccess;
import org.hpf.internal.access.OwnerNames;
import org.hpf.internal.format.MemberNames;

/**
 * A directory's entries as the walk of the sources needs them: each with its status, what kind
 * of link it is, and its owner, group and mode, ordered so that the walk yields names in
 * {@link MemberNames#ORDER} (a directory sorts as its name followed by '/', since every name
 * below it starts so).
 *
 * <p>One status per entry and no more. A local directory is read through the JDK with one
 * {@code lstat} per entry, which tells a link, a directory and a file apart and gives length,
 * modification time, mode and owner and group ids; the names of owners and groups are found
 * once each ({@link OwnerNames}). Hadoop's local status costs four system calls and, for the
 * owner, a process per file without Hadoop's native library; and its listing drops dangling
 * links without a word (it cannot stat their targets), which the walk must report. Only links
 * take more: the status of their target. Listings of other file systems carry everything
 * (HDFS: one call per thousand entries).
 */
final class SourceListing {
  /** A listed entry; {@code access} is null where the file system keeps none, or for links. */
  record Entry(FileStatus status, SymbolicLinks.Kind link, MemberAccess access) {}

  private static final String ATTRIBUTES =
      "unix:mode,uid,gid,size,lastModifiedTime,isDirectory,isSymbolicLink";

  private final PhaseClock clock;
  private final OwnerNames owners = new OwnerNames();

  SourceListing(PhaseClock clock) {
    this.clock = clock;
  }

  /** The entries of {@code dir}, in walk order. */
  List<Entry> list(FileSystem fs, Path dir) throws IOException {
    List<Entry> entries;
    RawLocalFileSystem local = plainLocal(fs);
    if (local != null && hasUnixView(local, dir)) {
      entries = listLocal(local, dir);
    } else {
      entries = listOther(fs, dir);
    }
    try (PhaseClock.Section s = clock.in(Phase.LISTING)) {
      entries.sort(Comparator.comparing(SourceListing::sortName, MemberNames.ORDER));
    }
    return entries;
  }

  /**
   * Hadoop's own raw local file system, which the walk and the reads bypass for the JDK's fewer
   * system calls; null for any other, a subclass included, whose calls may do more.
   */
  static RawLocalFileSystem plainLocal(FileSystem fs) {
    return fs.getClass() == RawLocalFileSystem.class ? (RawLocalFileSystem) fs : null;
  }

  private static String sortName(Entry entry) {
    String name = entry.status().getPath().getName();
    boolean directory = entry.link() == SymbolicLinks.Kind.TO_DIRECTORY
        || (entry.link() == SymbolicLinks.Kind.NONE && entry.status().isDirectory());
    return directory ? name + "/" : name;
  }

  private static boolean hasUnixView(RawLocalFileSystem fs, Path dir) {
    return fs.pathToFile(dir).toPath().getFileSystem().supportedFileAttributeViews()
        .contains("unix");
  }

  private List<Entry> listLocal(RawLocalFileSystem fs, Path dir) throws IOException {
    List<Entry> entries = new ArrayList<>();
    long blockSize = fs.getDefaultBlockSize(dir);
    PhaseClock.Section listing = clock.in(Phase.LISTING);
    try (DirectoryStream<java.nio.file.Path> children =
        Files.newDirectoryStream(fs.pathToFile(dir).toPath())) {
      for (java.nio.file.Path child : children) {
        Path path = child(dir, child.getFileName().toString());
        clock.enter(Phase.STAT);
        Map<String, Object> attributes;
        try {
          attributes = Files.readAttributes(child, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
          // removed since the listing, as a listing taken a moment later would show
          clock.enter(Phase.LISTING);
          continue;
        }
        if ((Boolean) attributes.get("isSymbolicLink")) {
          entries.add(link(fs, child, path));
        } else {
          boolean directory = (Boolean) attributes.get("isDirectory");
          FileStatus status = new FileStatus(directory ? 0 : (Long) attributes.get("size"),
              directory, 1, blockSize,
              ((FileTime) attributes.get("lastModifiedTime")).toMillis(), path);
          clock.enter(Phase.OWNERS);
          MemberAccess access = new MemberAccess(
              owners.user((Integer) attributes.get("uid"), child),
              owners.group((Integer) attributes.get("gid"), child),
              (Integer) attributes.get("mode") & MemberAccess.MODE_BITS);
          entries.add(new Entry(status, SymbolicLinks.Kind.NONE, access));
        }
        clock.enter(Phase.LISTING);
      }
    } catch (NoSuchFileException e) {
      throw new FileNotFoundException("directory disappeared while it was walked: " + dir);
    } finally {
      listing.close();
    }
    return entries;
  }

  /**
   * The path of entry {@code name} of {@code dir}, made from its parts: Hadoop's path of a
   * parent and a child parses and normalizes both, with regular expressions, which cost more
   * than the entry's status. A name from a listing holds no '/' and is neither "." nor "..".
   */
  static Path child(Path dir, String name) throws IOException {
    java.net.URI parent = dir.toUri();
    String path = parent.getPath();
    try {
      return new Path(new java.net.URI(parent.getScheme(), parent.getAuthority(),
          path.endsWith("/") ? path + name : path + "/" + name, null, null));
    } catch (java.net.URISyntaxException e) {
      throw new IOException("cannot name the entry '" + name + "' of " + dir, e);
    }
  }

  /** A local link: what its target is; the walk asks the target's status if it follows it. */
  private static Entry link(RawLocalFileSystem fs, java.nio.file.Path child, Path path) {
    SymbolicLinks.Kind kind = !Files.exists(child) ? SymbolicLinks.Kind.DANGLING
        : Files.isDirectory(child) ? SymbolicLinks.Kind.TO_DIRECTORY : SymbolicLinks.Kind.TO_FILE;
    return new Entry(new FileStatus(0, false, 0, 0, 0, path), kind, null);
  }

  private List<Entry> listOther(FileSystem fs, Path dir) throws IOException {
    FileStatus[] children;
    try (PhaseClock.Section s = clock.in(Phase.LISTING)) {
      children = fs instanceof RawLocalFileSystem local ? localStatuses(local, dir)
          : fs.listStatus(dir);
    }
    List<Entry> entries = new ArrayList<>(children.length);
    try (PhaseClock.Section s = clock.in(Phase.STAT)) {
      for (FileStatus child : children) {
        SymbolicLinks.Kind link = SymbolicLinks.kind(fs, child);
        entries.add(new Entry(child, link, link == SymbolicLinks.Kind.NONE
            ? FileAccess.of(fs, child) : null));
      }
    }
    return entries;
  }

  /**
   * A local directory's entries on a file system without the {@code unix} view, dangling links
   * included, through Hadoop's status.
   */
  private static FileStatus[] localStatuses(RawLocalFileSystem fs, Path dir) throws IOException {
    List<FileStatus> children = new ArrayList<>();
    try (DirectoryStream<java.nio.file.Path> entries =
        Files.newDirectoryStream(fs.pathToFile(dir).toPath())) {
      for (java.nio.file.Path entry : entries) {
        Path child = new Path(dir, new Path(null, null, entry.getFileName().toString()));
        try {
          children.add(fs.getFileStatus(child));
        } catch (FileNotFoundException e) {
          if (Files.isSymbolicLink(entry)) {
            children.add(new FileStatus(0, false, 0, 0, 0, child));
          } // else: removed since the listing
        }
      }
    } catch (NoSuchFileException e) {
      throw new FileNotFoundException("directory disappeared while it was walked: " + dir);
    }
    return children.toArray(new FileStatus[0]);
  }
}
