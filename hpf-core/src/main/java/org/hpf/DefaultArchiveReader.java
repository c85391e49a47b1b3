package org.hpf;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.stream.Stream;
import org.apache.hadoop.fs.BlockLocation;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.read.EntryStatus;
import org.hpf.internal.read.HpfReader;

/** The {@link ArchiveReader} over the engine's reader of one generation. */
final class DefaultArchiveReader implements ArchiveReader {
  private volatile HpfReader reader;

  DefaultArchiveReader(HpfReader reader) {
    this.reader = reader;
  }

  @Override
  public byte[] get(String name) throws IOException {
    return reader.get(name);
  }

  @Override
  public InputStream open(String name) throws IOException {
    return reader.open(name);
  }

  @Override
  public boolean exists(String name) throws IOException {
    return reader.exists(name);
  }

  @Override
  public MemberStatus stat(String name) throws IOException {
    EntryStatus status = reader.stat(name);
    return new MemberStatus(name, status.length(), status.mtimeMillis());
  }

  @Override
  public MemberIterator list(String prefix) throws IOException {
    return new Listing(reader.listEntries(prefix));
  }

  @Override
  public BlockLocation[] blockLocations(String name) throws IOException {
    return reader.blockLocations(name);
  }

  @Override
  public synchronized boolean refresh() throws IOException {
    HpfReader newer = reader.reopenIfChanged();
    if (newer == null) {
      return false;
    }
    HpfReader old = reader;
    reader = newer;
    old.close();
    return true;
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }

  /** Turns the engine's stream of names entries into Hadoop's iterator idiom. */
  private static final class Listing implements MemberIterator {
    private final Stream<NameEntry> entries;
    private final Iterator<NameEntry> iterator;
    private boolean closed;

    Listing(Stream<NameEntry> entries) {
      this.entries = entries;
      this.iterator = entries.iterator();
    }

    @Override
    public boolean hasNext() throws IOException {
      if (closed) {
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
        throw new java.util.NoSuchElementException("no more members");
      }
      NameEntry entry = iterator.next();
      return new MemberStatus(entry.name(), entry.length(), entry.mtimeMillis());
    }

    @Override
    public void close() throws IOException {
      if (!closed) {
        closed = true;
        try {
          entries.close();
        } catch (UncheckedIOException e) {
          throw e.getCause();
        }
      }
    }
  }
}
