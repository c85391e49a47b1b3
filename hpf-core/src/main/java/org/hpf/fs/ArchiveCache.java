package org.hpf.fs;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.NoCommittedGenerationException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.Manifest.PartInfo;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.read.SharedReader;

/**
 * The archives one {@link HpfFileSystem} has open, each read through one shared, thread-safe
 * {@link HpfReader}. An archive is opened on first use (its manifest and directory: two small
 * reads) and checked for a newer generation at most once per check interval (one listing of
 * {@code _manifests/}); a newer generation replaces the reader for new calls, and the old reader
 * is closed when the last stream opened on it is closed.
 */
final class ArchiveCache implements Closeable {
  private final FileSystem underlying;
  private final long checkIntervalNanos;
  private final int directorySetMax;
  private final ReaderOptions readerOptions;
  private final LongConsumer charge;
  private final Map<Path, OpenArchive> open = new HashMap<>();
  private boolean closed;

  /** @param charge told of every byte read of an archive but its names ({@link ChargedStorage}) */
  ArchiveCache(FileSystem underlying, long checkIntervalMillis, int directorySetMax,
      ReaderOptions readerOptions, LongConsumer charge) {
    this.underlying = underlying;
    this.charge = charge;
    this.checkIntervalNanos = checkIntervalMillis * 1_000_000L;
    this.directorySetMax = directorySetMax;
    this.readerOptions = readerOptions;
  }

  /** A lease on the current reader of {@code archive}; close it when done. */
  Lease acquire(Path archive) throws IOException {
    OpenArchive current;
    synchronized (this) {
      if (closed) {
        throw new IOException("hpf file system is closed");
      }
      current = open.get(archive);
      if (current != null && System.nanoTime() - current.checkedAt >= checkIntervalNanos) {
        HpfReader newer;
        try {
          newer = current.reader.reopenIfChanged();
        } catch (NoCommittedGenerationException e) {
          // The archive was removed (or emptied) since it was opened: open it anew below,
          // which reports what is there now.
          open.remove(archive);
          current.retire();
          current = null;
          newer = null;
        }
        if (current != null) {
          current.checkedAt = System.nanoTime();
        }
        if (newer != null) {
          open.remove(archive);
          current.retire();
          current = new OpenArchive(archive, newer, current.directory, underlying, directorySetMax);
          open.put(archive, current);
        }
      }
      if (current == null) {
        current = openArchive(archive);
        open.put(archive, current);
      }
      current.retain();
    }
    return new Lease(current);
  }

  /** Forgets the reader of {@code archive}, so the next call opens its newest generation. */
  synchronized void invalidate(Path archive) throws IOException {
    OpenArchive current = open.remove(archive);
    if (current != null) {
      current.retire();
    }
  }

  private OpenArchive openArchive(Path archive) throws IOException {
    FileStatus directory;
    try {
      directory = underlying.getFileStatus(archive);
    } catch (FileNotFoundException e) {
      throw notAnArchive(archive, "does not exist", e);
    }
    if (!directory.isDirectory()) {
      throw notAnArchive(archive, "is a file, not an archive directory", null);
    }
    try {
      HpfReader reader = HpfReader.open(new ChargedStorage(
          new HadoopStorage(underlying, archive, (short) 0), charge), readerOptions);
      return new OpenArchive(archive, reader, directory, underlying, directorySetMax);
    } catch (NoCommittedGenerationException e) {
      // Not a FileNotFoundException: FsShell and Spark replace those with their own "No such
      // file or directory" and the reason (no _manifests, an interrupted create) would be lost.
      throw e;
    }
  }

  private static FileNotFoundException notAnArchive(Path archive, String what, Exception cause) {
    FileNotFoundException e = new FileNotFoundException("hpf archive " + archive + " " + what);
    if (cause != null) {
      e.initCause(cause);
    }
    return e;
  }

  @Override
  public void close() throws IOException {
    List<OpenArchive> all;
    synchronized (this) {
      closed = true;
      all = new ArrayList<>(open.values());
      open.clear();
    }
    for (OpenArchive archive : all) {
      archive.retire();
    }
  }

  /** One generation of one archive, with what the file system reports about it. */
  static final class OpenArchive {
    final Path archive;
    final HpfReader reader;
    final FileStatus directory;
    final short replication;
    private final FileSystem underlying;
    private final Map<Integer, PartBlocks> blocks = new HashMap<>();
    private final int directorySetMax;
    /** What this generation's listings showed of its members, for the opens that follow. */
    final ListedRecords listed = new ListedRecords();
    private java.util.Set<String> directories;
    private boolean tooManyDirectories;
    /** Calls and streams on this generation: retired, it closes when the last is done. */
    private final SharedReader users;
    private long checkedAt = System.nanoTime();

    OpenArchive(Path archive, HpfReader reader, FileStatus directory, FileSystem underlying,
        int directorySetMax) throws IOException {
      this.archive = archive;
      this.directorySetMax = directorySetMax;
      this.reader = reader;
      this.users = new SharedReader(reader);
      this.directory = directory;
      this.underlying = underlying;
      List<PartInfo> parts = reader.manifest().parts();
      short r = underlying.getDefaultReplication(archive);
      if (!parts.isEmpty()) {
        r = underlying.getFileStatus(partPath(parts.get(0).id())).getReplication();
      }
      this.replication = r;
    }

    Path partPath(int part) {
      return new Path(archive, ArchiveLayout.part(part));
    }

    /** The blocks of a part file, asked of the file system once (sealed parts never change). */
    synchronized PartBlocks partBlocks(int part) throws IOException {
      PartBlocks known = blocks.get(part);
      if (known == null) {
        PartInfo info = reader.manifest().part(part);
        long length = info != null ? info.length() : underlying.getFileStatus(partPath(part))
            .getLen();
        known = new PartBlocks(underlying.getFileBlockLocations(partPath(part), 0, length));
        blocks.put(part, known);
      }
      return known;
    }

    /** The set of {@link #directories()} if it was built already, else null. */
    synchronized java.util.Set<String> directoriesIfBuilt() {
      return directories;
    }

    /**
     * Every implied directory of this generation ("a", "a/b", ...), built by one pass over the
     * names on first use; null if the archive has more than the configured number.
     */
    synchronized java.util.Set<String> directories() throws IOException {
      if (directories != null || tooManyDirectories) {
        return directories;
      }
      java.util.Set<String> found = new java.util.HashSet<>();
      try (java.util.stream.Stream<String> names = reader.list()) {
        for (java.util.Iterator<String> it = names.iterator(); it.hasNext();) {
          String name = it.next();
          for (int slash = name.lastIndexOf('/'); slash > 0;
              slash = name.lastIndexOf('/', slash - 1)) {
            if (!found.add(name.substring(0, slash))) {
              break; // its ancestors were added with it
            }
          }
          if (found.size() > directorySetMax) {
            tooManyDirectories = true;
            return null;
          }
        }
      } catch (java.io.UncheckedIOException e) {
        throw e.getCause();
      }
      directories = found;
      return directories;
    }

    /** Always succeeds: the cache retires a generation only after it stops handing it out. */
    private void retain() {
      if (!users.acquire()) {
        throw new IllegalStateException("generation of " + archive + " retired and closed");
      }
    }

    private void retire() throws IOException {
      users.retire();
    }

    private void release() throws IOException {
      users.release();
    }
  }

  /** Keeps an archive's reader open while a call or a stream uses it. */
  static final class Lease implements Closeable {
    private final OpenArchive archive;
    private boolean released;

    private Lease(OpenArchive archive) {
      this.archive = archive;
    }

    OpenArchive archive() {
      return archive;
    }

    HpfReader reader() {
      return archive.reader;
    }

    @Override
    public void close() throws IOException {
      synchronized (this) {
        if (released) {
          return;
        }
        released = true;
      }
      archive.release();
    }
  }
}
