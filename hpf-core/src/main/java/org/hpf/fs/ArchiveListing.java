package org.hpf.fs;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.stream.Stream;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.hpf.FileNotInArchiveException;
import org.hpf.MemberAccess;
import org.hpf.internal.format.Codec;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.EntryLocation;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.MemberNames;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.read.EntryStatus;
import org.hpf.internal.read.HpfReader;

/**
 * File statuses, listings and block locations of the members of an archive and of the
 * directories their names imply.
 *
 * <p>Directories are implied by the {@code /} in names; since names are sorted by their UTF-8
 * bytes, the names below a directory {@code d/} are one contiguous run of the names segments, so
 * every listing streams that run (holding one checked block per segment) and never builds the
 * tree. A listing costs reading the names up to the end of the directory (located ones too: names
 * entries of format 2 say where each entry is); a file's status costs one index lookup (plus an
 * entry-header read in archives of format 1); a directory's status, a lookup in
 * the archive's set of directories (built by one pass over the names the first time it is
 * needed, if the archive has at most {@value HpfFileSystem#DIRECTORY_SET_DEFAULT} directories,
 * {@value HpfFileSystem#DIRECTORY_SET_KEY}), else reading the names up to its first member.
 *
 * <p>If an archive holds both {@code a/b} and {@code a/b/c} (an append can add both), the file
 * wins: {@code a/b} is a file, and a listing of {@code a} shows it once, as a file.
 */
final class ArchiveListing {
  static final FsPermission FILE_PERMISSION = new FsPermission((short) 0444);
  static final FsPermission DIRECTORY_PERMISSION = new FsPermission((short) 0555);
  /** The bits of a recorded mode a member's status shows: no write bits, no setuid/setgid. */
  private static final int READ_ONLY_BITS = 01555;

  private final String authority;

  /** @param authority the hpf authority of the paths returned (null for {@code hpf:///}) */
  ArchiveListing(String authority) {
    this.authority = authority;
  }

  Path path(ArchiveCache.OpenArchive archive, String member) {
    return HpfPaths.toHpf(authority, archive.archive, member);
  }

  /**
   * A member's status: its recorded owner and group, and its recorded permission without write
   * bits (the file system is read-only); a member whose access is not recorded (access 0, older
   * archives) gets the archive directory's owner and group, and 0444.
   */
  FileStatus file(ArchiveCache.OpenArchive archive, String member, long length, long mtime,
      int access) throws IOException {
    MemberAccess recorded = archive.reader.manifest().access(access, archive.reader.location());
    String owner = recorded == null ? archive.directory.getOwner() : recorded.owner();
    String group = recorded == null ? archive.directory.getGroup() : recorded.group();
    FsPermission permission = recorded == null ? FILE_PERMISSION
        : new FsPermission((short) (recorded.mode() & READ_ONLY_BITS));
    return new FileStatus(length, false, archive.replication, archive.reader.manifest()
        .blockSize(), mtime, mtime, permission, owner, group, path(archive, member));
  }

  /** An implied directory: it has the time of the generation's commit. */
  FileStatus directory(ArchiveCache.OpenArchive archive, String member) {
    long time = archive.reader.manifest().commitTimeMillis();
    return new FileStatus(0, true, 0, 0, time, time, DIRECTORY_PERMISSION,
        archive.directory.getOwner(), archive.directory.getGroup(), path(archive, member));
  }

  /** The status of the member a names entry lists (inside streams: unchecked failures). */
  FileStatus fileOf(ArchiveCache.OpenArchive archive, NameEntry entry) {
    archive.listed.listed(entry);
    try {
      return file(archive, entry.name(), entry.length(), entry.mtimeMillis(), entry.access());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The status of a member or implied directory ("" is the archive), or null if neither. */
  FileStatus status(ArchiveCache.OpenArchive archive, String member) throws IOException {
    if (member.isEmpty()) {
      return directory(archive, member);
    }
    HpfReader reader = archive.reader;
    try {
      EntryStatus stat = reader.stat(member);
      return file(archive, member, stat.length(), stat.mtimeMillis(), stat.access());
    } catch (FileNotInArchiveException notAMember) {
      return isDirectory(archive, member) ? directory(archive, member) : null;
    }
  }

  /**
   * True if names below {@code member} exist: from the archive's set of directories when it
   * keeps one, else by reading the sorted names up to the first name below it.
   */
  static boolean isDirectory(ArchiveCache.OpenArchive archive, String member)
      throws IOException {
    if (member.isEmpty()) {
      return true;
    }
    java.util.Set<String> directories = archive.directories();
    if (directories != null) {
      return directories.contains(member);
    }
    try (Stream<NameEntry> below = archive.reader.listEntries(member + "/")) {
      return below.findFirst().isPresent();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /**
   * True if {@code member} is a directory of the archive's set of directories (when it was built
   * already) and no member has its name, told from the names: a file's entry would be the first
   * of the names that start with it. A walk of the tree lists each directory right after, from
   * the same names blocks, so this costs no read where an index lookup of the name would.
   */
  static boolean onlyADirectory(ArchiveCache.OpenArchive archive, String member)
      throws IOException {
    java.util.Set<String> directories = archive.directoriesIfBuilt();
    if (member.isEmpty() || directories == null || !directories.contains(member)) {
      return false;
    }
    return archive.reader.listedEntry(member) == null;
  }

  /** A file status with the locations of the member's bytes, which {@code record} locates. */
  LocatedFileStatus located(ArchiveCache.OpenArchive archive, FileStatus file, String member,
      IndexRecord record) throws IOException {
    return new LocatedFileStatus(file, blockLocations(archive, member, record, 0,
        file.getLen()));
  }

  /**
   * The blocks of the member's part that hold its bytes {@code [start, start + length)}, with
   * offsets relative to the member; a compressed member gets one location for all of it. None
   * for a name that is not a member.
   */
  BlockLocation[] blockLocations(ArchiveCache.OpenArchive archive, String member, long start,
      long length) throws IOException {
    return blockLocations(archive, member, archive.reader.record(member), start, length);
  }

  private BlockLocation[] blockLocations(ArchiveCache.OpenArchive archive, String member,
      IndexRecord record, long start, long length) throws IOException {
    if (record == null) {
      return new BlockLocation[0];
    }
    return blockLocations(archive, member, EntryLocation.of(record), record.originalLength(),
        start, length);
  }

  private BlockLocation[] blockLocations(ArchiveCache.OpenArchive archive, String member,
      EntryLocation entry, long memberLength, long start, long length) throws IOException {
    if (start >= memberLength || length <= 0) {
      return new BlockLocation[0];
    }
    PartBlocks blocks = archive.partBlocks(entry.part());
    if (entry.codec() != Codec.RAW) {
      return new BlockLocation[] {
          blocks.whole(entry.offset(), entry.entryLength(), memberLength)};
    }
    long memberStart = entry.offset() + EntryHeader.size(MemberNames.utf8(member).length);
    long end = Math.min(memberLength, start + length);
    return blocks.slice(memberStart, memberStart + start, end - start);
  }

  /** The direct children of directory {@code member} ("" for the archive root), streamed. */
  StreamingIterator<FileStatus> children(ArchiveCache.Lease lease, String member)
      throws IOException {
    String prefix = member.isEmpty() ? "" : member + "/";
    Stream<NameEntry> names = lease.archive().reader.listEntries(prefix);
    Iterator<Child> children = children(lease.archive(), prefix, names.iterator());
    Iterator<FileStatus> statuses = new Iterator<>() {
      @Override
      public boolean hasNext() {
        return children.hasNext();
      }

      @Override
      public FileStatus next() {
        return children.next().status();
      }
    };
    return new StreamingIterator<>(statuses, names, lease);
  }

  /** A status listed, the member (or directory) name it is for, and a file's names entry. */
  private record Child(FileStatus status, String member, NameEntry entry) {}

  /**
   * As {@link #children}, files with the locations of their bytes: from the names entries where
   * they carry them (names segments of version 2: no index read at all), else from their records,
   * looked up a batch at a time ({@link HpfReader#recordsOfHashes}).
   */
  StreamingIterator<LocatedFileStatus> locatedChildren(ArchiveCache.Lease lease, String member)
      throws IOException {
    String prefix = member.isEmpty() ? "" : member + "/";
    ArchiveCache.OpenArchive archive = lease.archive();
    Stream<NameEntry> names = archive.reader.listEntries(prefix);
    Iterator<LocatedFileStatus> located = new BatchingIterator<>(
        children(archive, prefix, names.iterator()), BATCH, batch -> locate(archive, batch));
    return new StreamingIterator<>(located, names, lease);
  }

  /** Members whose records a located listing looks up together. */
  static final int BATCH = 4096;

  /** Located statuses of a batch of statuses (directories have no locations). */
  private List<LocatedFileStatus> locate(ArchiveCache.OpenArchive archive, List<Child> batch)
      throws IOException {
    List<String> unlocated = new ArrayList<>();
    for (Child child : batch) {
      if (child.status().isFile() && child.entry().location() == null) {
        unlocated.add(child.member());
      }
    }
    List<IndexRecord> records = unlocated.isEmpty() ? List.of()
        : archive.reader.recordsOfHashes(unlocated);
    List<LocatedFileStatus> located = new ArrayList<>(batch.size());
    int f = 0;
    for (Child child : batch) {
      FileStatus status = child.status();
      BlockLocation[] blocks = null;
      if (status.isFile()) {
        EntryLocation entry = child.entry().location();
        blocks = entry != null
            ? blockLocations(archive, child.member(), entry, status.getLen(), 0, status.getLen())
            : blockLocations(archive, child.member(), records.get(f++), 0, status.getLen());
      }
      located.add(new LocatedFileStatus(status, blocks));
    }
    return located;
  }

  private Iterator<Child> children(ArchiveCache.OpenArchive archive, String prefix,
      Iterator<NameEntry> it) {
    return new Iterator<>() {
      private final Deque<String> recentFiles = new ArrayDeque<>();
      private String lastDirectory;
      private Child next;

      @Override
      public boolean hasNext() {
        while (next == null && it.hasNext()) {
          NameEntry entry = it.next();
          String rest = entry.name().substring(prefix.length());
          int slash = rest.indexOf('/');
          String child = slash < 0 ? rest : rest.substring(0, slash);
          while (!recentFiles.isEmpty() && !child.startsWith(recentFiles.peekLast())) {
            recentFiles.pollLast();
          }
          if (slash < 0) {
            recentFiles.addLast(child);
            next = new Child(fileOf(archive, entry), prefix + child, entry);
          } else if (!child.equals(lastDirectory)) {
            lastDirectory = child;
            if (!recentFiles.contains(child)) {
              next = new Child(directory(archive, prefix + child), prefix + child, null);
            }
          }
        }
        return next != null;
      }

      @Override
      public Child next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        Child result = next;
        next = null;
        return result;
      }
    };
  }

  /** The files at or below directory {@code member}, in name order, streamed. */
  StreamingIterator<LocatedFileStatus> files(ArchiveCache.Lease lease, String member,
      boolean recursive) throws IOException {
    ArchiveCache.OpenArchive archive = lease.archive();
    String prefix = member.isEmpty() ? "" : member + "/";
    Stream<NameEntry> names = archive.reader.listEntries(prefix);
    Iterator<Child> selected = names
        .filter(e -> recursive || e.name().indexOf('/', prefix.length()) < 0)
        .map(e -> new Child(fileOf(archive, e), e.name(), e))
        .iterator();
    Iterator<LocatedFileStatus> files = new BatchingIterator<>(selected, BATCH,
        batch -> locate(archive, batch));
    return new StreamingIterator<>(files, names, lease);
  }

  /** Length, files and directories (the directory itself included) at or below a directory. */
  ContentSummary summary(HpfReader reader, String member) throws IOException {
    String prefix = member.isEmpty() ? "" : member + "/";
    long files = 0;
    long bytes = 0;
    long directories = 1;
    String[] previous = new String[0];
    try (Stream<NameEntry> names = reader.listEntries(prefix)) {
      for (Iterator<NameEntry> it = names.iterator(); it.hasNext();) {
        NameEntry entry = it.next();
        files++;
        bytes += entry.length();
        String[] components = entry.name().substring(prefix.length()).split("/");
        int dirs = components.length - 1;
        int common = 0;
        while (common < dirs && common < previous.length - 1
            && components[common].equals(previous[common])) {
          common++;
        }
        directories += dirs - common;
        previous = components;
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return new ContentSummary.Builder().length(bytes).fileCount(files)
        .directoryCount(directories).spaceConsumed(bytes).build();
  }

  /**
   * A RemoteIterator over a names stream that releases the stream and the archive lease when it
   * is exhausted, fails, or is closed.
   */
  static final class StreamingIterator<T> implements RemoteIterator<T>, Closeable {
    private final Iterator<T> items;
    private final Stream<?> source;
    private final ArchiveCache.Lease lease;
    private boolean closed;

    StreamingIterator(Iterator<T> items, Stream<?> source, ArchiveCache.Lease lease) {
      this.items = items;
      this.source = source;
      this.lease = lease;
    }

    @Override
    public boolean hasNext() throws IOException {
      if (closed) {
        return false;
      }
      boolean more;
      try {
        more = items.hasNext();
      } catch (UncheckedIOException e) {
        close();
        throw e.getCause();
      } catch (RuntimeException e) {
        close();
        throw e;
      }
      if (!more) {
        close();
      }
      return more;
    }

    @Override
    public T next() throws IOException {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      try {
        return items.next();
      } catch (UncheckedIOException e) {
        close();
        throw e.getCause();
      }
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      try {
        source.close();
      } catch (UncheckedIOException e) {
        throw e.getCause();
      } finally {
        lease.close();
      }
    }
  }
}
