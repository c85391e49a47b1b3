package org.hpf;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.stream.Stream;
import org.apache.hadoop.fs.BlockLocation;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.read.BatchEntry;
import org.hpf.internal.read.BatchReader;
import org.hpf.internal.read.DirectoryAccess;
import org.hpf.internal.read.EntryStatus;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.SharedReader;

/**
 * The {@link ArchiveReader} over the engine's reader of one generation. Every call, open stream
 * and listing holds the generation it started on, so {@link #refresh()} may run while other
 * threads read: the generation left is closed when the last of them is done with it.
 */
final class DefaultArchiveReader implements ArchiveReader {
  private final String location;
  private final DirectoryAccess unrecorded;
  private volatile SharedReader current;

  DefaultArchiveReader(HpfReader reader, DirectoryAccess unrecorded) {
    this.location = reader.location();
    this.unrecorded = unrecorded;
    this.current = new SharedReader(reader);
  }

  private SharedReader acquire() throws IOException {
    for (;;) {
      SharedReader generation = current;
      if (generation == null) {
        throw new IOException("the reader of " + location + " is closed");
      }
      if (generation.acquire()) {
        return generation;
      }
      // refresh() retired it and its last user left between the read and the acquire
    }
  }

  /** A call on one generation. */
  @FunctionalInterface
  private interface Call<T> {
    T on(HpfReader reader) throws IOException;
  }

  private <T> T call(Call<T> call) throws IOException {
    SharedReader generation = acquire();
    try {
      return call.on(generation.reader());
    } finally {
      generation.release();
    }
  }

  @Override
  public byte[] get(String name) throws IOException {
    return call(reader -> reader.get(name));
  }

  /** A call whose result (a stream, a listing) keeps using its generation until closed. */
  @FunctionalInterface
  private interface HoldingCall<T> {
    T on(SharedReader generation) throws IOException;
  }

  private <T> T holding(HoldingCall<T> call) throws IOException {
    SharedReader generation = acquire();
    try {
      return call.on(generation);
    } catch (IOException | RuntimeException | Error e) {
      generation.release();
      throw e;
    }
  }

  @Override
  public InputStream open(String name) throws IOException {
    return holding(generation -> new HeldStream(generation.reader().open(name), generation));
  }

  @Override
  public boolean exists(String name) throws IOException {
    return call(reader -> reader.exists(name));
  }

  @Override
  public MemberStatus stat(String name) throws IOException {
    return call(reader -> {
      EntryStatus status = reader.stat(name);
      return new MemberStatus(name, status.length(), status.mtimeMillis(),
          unrecorded.of(reader, status.access()));
    });
  }

  @Override
  public MemberIterator list(String directory) throws IOException {
    String path = withoutTrailingSlashes(directory);
    return holding(generation -> new Listing(below(generation.reader(), path), generation,
        unrecorded));
  }

  @Override
  public boolean isDirectory(String name) throws IOException {
    String path = withoutTrailingSlashes(name);
    return path.isEmpty() || call(reader -> {
      try (Stream<NameEntry> below = reader.listEntries(path + "/")) {
        return below.findAny().isPresent();
      }
    });
  }

  /**
   * The names below a directory (every name for the root); a member's own name for itself,
   * told from the names files ({@link HpfReader#listedEntry}) with no index lookup.
   */
  private static Stream<NameEntry> below(HpfReader reader, String path) throws IOException {
    if (path.isEmpty()) {
      return reader.listEntries("");
    }
    NameEntry member = reader.listedEntry(path);
    return member != null ? Stream.of(member) : reader.listEntries(path + "/");
  }

  private static String withoutTrailingSlashes(String path) {
    int end = path.length();
    while (end > 0 && path.charAt(end - 1) == '/') {
      end--;
    }
    return path.substring(0, end);
  }

  @Override
  public void readAll(Collection<String> names, BatchRead settings, MemberHandler handler)
      throws IOException {
    call(reader -> {
      readBatch(reader, names.iterator(), settings, handler);
      return null;
    });
  }

  @Override
  public void readDirectory(String directory, BatchRead settings, MemberHandler handler)
      throws IOException {
    String path = withoutTrailingSlashes(directory);
    call(reader -> {
      try (Stream<NameEntry> members = below(reader, path)) {
        BatchReader.readListed(reader, members.iterator(), BatchReader.Settings.of(settings),
            entry -> handler.handle(new Member(entry, reader)));
      } catch (UncheckedIOException e) {
        throw e.getCause(); // closing a names file failed
      }
      return null;
    });
  }

  private void readBatch(HpfReader reader, Iterator<String> names, BatchRead settings,
      MemberHandler handler) throws IOException {
    BatchReader.read(reader, names, BatchReader.Settings.of(settings),
        entry -> handler.handle(new Member(entry, reader)));
  }

  /** A batch's member, its status with the access the API reports. */
  private final class Member implements BatchMember {
    private final BatchEntry entry;
    private final HpfReader reader;

    Member(BatchEntry entry, HpfReader reader) {
      this.entry = entry;
      this.reader = reader;
    }

    @Override
    public String name() {
      return entry.name();
    }

    @Override
    public boolean found() {
      return entry.found();
    }

    @Override
    public MemberStatus status() throws IOException {
      EntryStatus status = entry.status();
      return new MemberStatus(status.name(), status.length(), status.mtimeMillis(),
          unrecorded.of(reader, status.access()));
    }

    @Override
    public byte[] bytes() throws IOException {
      return entry.bytes();
    }

    @Override
    public InputStream open() throws IOException {
      return entry.open();
    }

    @Override
    public String toString() {
      return entry.name();
    }
  }

  @Override
  public BlockLocation[] blockLocations(String name) throws IOException {
    return call(reader -> reader.blockLocations(name));
  }

  @Override
  public synchronized boolean refresh() throws IOException {
    SharedReader old = current;
    if (old == null) {
      throw new IOException("the reader of " + location + " is closed");
    }
    HpfReader newer = call(HpfReader::reopenIfChanged);
    if (newer == null) {
      return false;
    }
    current = new SharedReader(newer);
    old.retire();
    return true;
  }

  @Override
  public synchronized void close() throws IOException {
    SharedReader last = current;
    current = null;
    if (last != null) {
      last.retire();
    }
  }

  /** A member's stream; holds its generation until closed. */
  private static final class HeldStream extends FilterInputStream {
    private SharedReader generation;

    HeldStream(InputStream in, SharedReader generation) {
      super(in);
      this.generation = generation;
    }

    @Override
    public void close() throws IOException {
      SharedReader held = generation;
      generation = null;
      try {
        super.close();
      } finally {
        if (held != null) {
          held.release();
        }
      }
    }
  }

  /**
   * Turns the engine's stream of names entries into Hadoop's iterator idiom; holds its
   * generation until exhausted or closed.
   */
  private static final class Listing implements MemberIterator {
    private final Stream<NameEntry> entries;
    private final Iterator<NameEntry> iterator;
    private final DirectoryAccess unrecorded;
    private SharedReader generation;

    Listing(Stream<NameEntry> entries, SharedReader generation, DirectoryAccess unrecorded) {
      this.entries = entries;
      this.unrecorded = unrecorded;
      this.iterator = entries.iterator();
      this.generation = generation;
    }

    @Override
    public boolean hasNext() throws IOException {
      if (generation == null) {
        return false;
      }
      boolean more;
      try {
        more = iterator.hasNext();
      } catch (UncheckedIOException e) {
        close();
        throw e.getCause();
      }
      if (!more) {
        close();
      }
      return more;
    }

    @Override
    public MemberStatus next() throws IOException {
      if (!hasNext()) {
        throw new NoSuchElementException("no more members");
      }
      NameEntry entry = iterator.next();
      return new MemberStatus(entry.name(), entry.length(), entry.mtimeMillis(),
          unrecorded.of(generation.reader(), entry.access()));
    }

    @Override
    public void close() throws IOException {
      SharedReader held = generation;
      generation = null;
      if (held == null) {
        return;
      }
      try {
        entries.close();
      } catch (UncheckedIOException e) {
        throw e.getCause();
      } finally {
        held.release();
      }
    }
  }
}
