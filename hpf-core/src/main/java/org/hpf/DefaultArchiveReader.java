package org.hpf;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.stream.Stream;
import org.apache.hadoop.fs.BlockLocation;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.read.EntryStatus;
import org.hpf.internal.read.HpfReader;

/**
 * The {@link ArchiveReader} over the engine's reader of one generation. Every call, open stream
 * and listing holds the generation it started on, so {@link #refresh()} may run while other
 * threads read: the generation left is closed when the last of them is done with it.
 */
final class DefaultArchiveReader implements ArchiveReader {
  private final String location;
  private volatile Generation current;

  DefaultArchiveReader(HpfReader reader) {
    this.location = reader.location();
    this.current = new Generation(reader);
  }

  /** One generation's reader and how many calls, streams and listings still use it. */
  private static final class Generation {
    final HpfReader reader;
    private int users;
    private boolean retired;
    private boolean closed;

    Generation(HpfReader reader) {
      this.reader = reader;
    }

    /** False once the reader is closed: the caller takes the newer generation instead. */
    synchronized boolean acquire() {
      if (closed) {
        return false;
      }
      users++;
      return true;
    }

    void release() throws IOException {
      synchronized (this) {
        users--;
        if (!retired || users > 0 || closed) {
          return;
        }
        closed = true;
      }
      reader.close();
    }

    /** No new user will come: closes the reader now or when the last user is done. */
    void retire() throws IOException {
      synchronized (this) {
        retired = true;
        if (users > 0 || closed) {
          return;
        }
        closed = true;
      }
      reader.close();
    }
  }

  private Generation acquire() throws IOException {
    for (;;) {
      Generation generation = current;
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
    Generation generation = acquire();
    try {
      return call.on(generation.reader);
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
    T on(Generation generation) throws IOException;
  }

  private <T> T holding(HoldingCall<T> call) throws IOException {
    Generation generation = acquire();
    try {
      return call.on(generation);
    } catch (IOException | RuntimeException | Error e) {
      generation.release();
      throw e;
    }
  }

  @Override
  public InputStream open(String name) throws IOException {
    return holding(generation -> new HeldStream(generation.reader.open(name), generation));
  }

  @Override
  public boolean exists(String name) throws IOException {
    return call(reader -> reader.exists(name));
  }

  @Override
  public MemberStatus stat(String name) throws IOException {
    EntryStatus status = call(reader -> reader.stat(name));
    return new MemberStatus(name, status.length(), status.mtimeMillis());
  }

  @Override
  public MemberIterator list(String prefix) throws IOException {
    return holding(generation -> new Listing(generation.reader.listEntries(prefix),
        generation));
  }

  @Override
  public BlockLocation[] blockLocations(String name) throws IOException {
    return call(reader -> reader.blockLocations(name));
  }

  @Override
  public synchronized boolean refresh() throws IOException {
    Generation old = current;
    if (old == null) {
      throw new IOException("the reader of " + location + " is closed");
    }
    HpfReader newer = call(HpfReader::reopenIfChanged);
    if (newer == null) {
      return false;
    }
    current = new Generation(newer);
    old.retire();
    return true;
  }

  @Override
  public synchronized void close() throws IOException {
    Generation last = current;
    current = null;
    if (last != null) {
      last.retire();
    }
  }

  /** A member's stream; holds its generation until closed. */
  private static final class HeldStream extends FilterInputStream {
    private Generation generation;

    HeldStream(InputStream in, Generation generation) {
      super(in);
      this.generation = generation;
    }

    @Override
    public void close() throws IOException {
      Generation held = generation;
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
    private Generation generation;

    Listing(Stream<NameEntry> entries, Generation generation) {
      this.entries = entries;
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
      return new MemberStatus(entry.name(), entry.length(), entry.mtimeMillis());
    }

    @Override
    public void close() throws IOException {
      Generation held = generation;
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
