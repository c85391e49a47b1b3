package org.hpf.internal.format;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Merges names segments, oldest first, into one sorted stream in which the newest entry for a
 * name wins. Deletion markers are either dropped with what they hide (for listings, and when the
 * merge includes the oldest segment) or kept (when merging only the newer segments).
 */
public final class NamesMerge implements Iterator<NameEntry>, AutoCloseable {
  private record Head(NameEntry entry, int segment) {}

  private final List<NamesFileReader> segments;
  private final boolean keepDeletions;
  private final PriorityQueue<Head> heads = new PriorityQueue<>((a, b) -> {
    int c = MemberNames.compare(a.entry.name(), b.entry.name());
    return c != 0 ? c : Integer.compare(b.segment, a.segment);
  });
  private NameEntry next;

  /** Takes ownership of the readers: they are closed by {@link #close()}, or here on failure. */
  public NamesMerge(List<NamesFileReader> segmentsOldestFirst, boolean keepDeletions)
      throws IOException {
    this.segments = new ArrayList<>(segmentsOldestFirst);
    this.keepDeletions = keepDeletions;
    try {
      for (int i = 0; i < segments.size(); i++) {
        advance(i);
      }
    } catch (java.io.UncheckedIOException e) {
      close();
      throw e.getCause();
    }
  }

  private void advance(int segment) {
    NamesFileReader reader = segments.get(segment);
    if (reader.hasNext()) {
      heads.add(new Head(reader.next(), segment));
    }
  }

  @Override
  public boolean hasNext() {
    while (next == null && !heads.isEmpty()) {
      Head winner = heads.poll();
      advance(winner.segment);
      while (!heads.isEmpty() && heads.peek().entry.name().equals(winner.entry.name())) {
        advance(heads.poll().segment);
      }
      if (!winner.entry.deleted() || keepDeletions) {
        next = winner.entry;
      }
    }
    return next != null;
  }

  @Override
  public NameEntry next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    NameEntry result = next;
    next = null;
    return result;
  }

  @Override
  public void close() throws IOException {
    IOException failure = null;
    for (NamesFileReader reader : segments) {
      try {
        reader.close();
      } catch (IOException e) {
        failure = e;
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
