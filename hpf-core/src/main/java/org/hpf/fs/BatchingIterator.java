package org.hpf.fs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Maps the elements of an iterator a batch at a time (for work that is cheaper together, such
 * as looking up many index records), handing the results out one by one. An I/O failure of the
 * mapping is thrown as an {@link UncheckedIOException}, which listings turn back into the
 * {@code IOException}.
 */
final class BatchingIterator<A, B> implements Iterator<B> {
  /** Maps a batch to as many results, in order. */
  @FunctionalInterface
  interface BatchFunction<A, B> {
    List<B> apply(List<A> batch) throws IOException;
  }

  private final Iterator<A> source;
  private final int size;
  private final BatchFunction<A, B> map;
  private Iterator<B> mapped = java.util.Collections.emptyIterator();

  BatchingIterator(Iterator<A> source, int size, BatchFunction<A, B> map) {
    this.source = source;
    this.size = size;
    this.map = map;
  }

  @Override
  public boolean hasNext() {
    if (!mapped.hasNext() && source.hasNext()) {
      List<A> batch = new ArrayList<>(size);
      while (batch.size() < size && source.hasNext()) {
        batch.add(source.next());
      }
      try {
        mapped = map.apply(batch).iterator();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return mapped.hasNext();
  }

  @Override
  public B next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return mapped.next();
  }
}
