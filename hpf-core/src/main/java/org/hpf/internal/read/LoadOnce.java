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
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;

/**
 * Values loaded at most once per key and shared by all threads, where loading is I/O: threads
 * that ask for different keys load at the same time, threads that ask for the same key wait
 * for one load. A load that fails is forgotten, so the next request tries again. A value can be
 * loaded ahead, on another thread, before anyone asks for it.
 */
final class LoadOnce<K, V extends Closeable> {
  /** A load of one value: an I/O operation. */
  @FunctionalInterface
  interface Loader<V> {
    V load() throws IOException;
  }

  /** A load started ahead of any request. */
  private static final class AheadTask<V> extends FutureTask<V> {
    AheadTask(Loader<V> loader) {
      super(loader::load);
    }
  }

  private final ConcurrentHashMap<K, FutureTask<V>> values = new ConcurrentHashMap<>();

  /**
   * Starts loading {@code key} on {@code executor} unless it is loaded or loading already; a
   * request for it then waits for that load. Where the load ahead fails, the first request
   * loads the value again in its own thread and sees that load's outcome, not the other's.
   */
  void loadAhead(K key, Loader<V> loader, Executor executor) {
    if (values.containsKey(key)) {
      return;
    }
    AheadTask<V> task = new AheadTask<>(loader);
    if (values.putIfAbsent(key, task) != null) {
      return;
    }
    try {
      executor.execute(task);
    } catch (RejectedExecutionException e) {
      values.remove(key, task);
    }
  }

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
    } catch (ExecutionException | CancellationException e) {
      values.remove(key, task);
      if (task instanceof AheadTask) {
        return get(key, loader);
      }
      if (e instanceof CancellationException) {
        throw new InterruptedIOException("load of " + key + " was cancelled");
      }
      Throwable cause = e.getCause();
      Throwables.throwIfInstanceOf(cause, IOException.class);
      Throwables.throwIfUnchecked(cause);
      throw new IOException(cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while another thread loads " + key);
    }
  }

  /**
   * Closes every value loaded, after waiting for the loads still running (so that none opened
   * ahead is left open), and forgets them all; the last failure to close is thrown.
   */
  void closeAll() throws IOException {
    IOException failure = null;
    boolean interrupted = false;
    for (FutureTask<V> task : values.values()) {
      while (!task.isDone()) {
        try {
          task.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException | CancellationException e) {
          break;
        }
      }
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
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
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
