package org.hpf.internal.read;

import com.google.common.base.Throwables;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Values loaded at most once per key and shared by all threads, where loading is I/O: threads
 * that ask for different keys load at the same time, threads that ask for the same key wait
 * for one load. A load that fails is forgotten, so the next request tries again.
 */
final class LoadOnce<K, V extends Closeable> {
  /** A load of one value: an I/O operation. */
  @FunctionalInterface
  interface Loader<V> {
    V load() throws IOException;
  }

  private final ConcurrentHashMap<K, FutureTask<V>> values = new ConcurrentHashMap<>();

  V get(K key, Loader<V> loader) throws IOException {
    FutureTask<V> task = values.get(key);
    if (task == null) {
      FutureTask<V> mine = new FutureTask<>(loader::load);
      task = values.putIfAbsent(key, mine);
      if (task == null) {
        task = mine;
        mine.run();
      }
    }
    try {
      return task.get();
    } catch (ExecutionException e) {
      values.remove(key, task);
      Throwable cause = e.getCause();
      Throwables.throwIfInstanceOf(cause, IOException.class);
      Throwables.throwIfUnchecked(cause);
      throw new IOException(cause);
    } catch (CancellationException e) {
      values.remove(key, task);
      throw new InterruptedIOException("load of " + key + " was cancelled");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while another thread loads " + key);
    }
  }

  /** Closes every value loaded, forgets them all; the last failure to close is thrown. */
  void closeAll() throws IOException {
    IOException failure = null;
    for (FutureTask<V> task : values.values()) {
      V value = loaded(task);
      if (value != null) {
        try {
          value.close();
        } catch (IOException e) {
          failure = e;
        }
      }
    }
    values.clear();
    if (failure != null) {
      throw failure;
    }
  }

  /** The values loaded so far (those still loading, or whose load failed, left out). */
  List<V> loaded() {
    List<V> done = new ArrayList<>();
    for (FutureTask<V> task : values.values()) {
      V value = loaded(task);
      if (value != null) {
        done.add(value);
      }
    }
    return done;
  }

  private static <V> V loaded(FutureTask<V> task) {
    if (!task.isDone()) {
      return null;
    }
    try {
      return task.get();
    } catch (ExecutionException | CancellationException | InterruptedException e) {
      return null;
    }
  }
}
