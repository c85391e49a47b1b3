package org.hpf.internal.write;

import com.google.common.base.Throwables;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Members handed to merge threads one at a time, at most two per thread waiting, so a walk of
 * millions of sources never queues them all. The first failure stops the rest: callers stop
 * handing out members once {@link #failed}, and {@link #finish} throws it. {@link #close} waits
 * for every member handed out, so none is written after a caller that failed cleans up.
 */
public final class MergeQueue implements AutoCloseable {
  /** Merges one member. */
  @FunctionalInterface
  public interface Task {
    void run() throws IOException;
  }

  private final Executor threads;
  private final int permits;
  private final Semaphore slots;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  /** {@code threads} runs the tasks; {@code threadCount}, how many it has. */
  public MergeQueue(Executor threads, int threadCount) {
    this.threads = threads;
    this.permits = threadCount * 2;
    this.slots = new Semaphore(permits);
  }

  /** Whether a task failed: hand out no more. */
  public boolean failed() {
    return failure.get() != null;
  }

  /** Runs {@code task} on a merge thread, once one of the queue's slots is free. */
  public void submit(Task task) throws InterruptedIOException {
    try {
      slots.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while handing out members to merge");
    }
    try {
      threads.execute(() -> {
        try {
          if (failure.get() == null) {
            task.run();
          }
        } catch (Throwable e) {
          failure.accumulateAndGet(e, MergeQueue::cause);
        } finally {
          slots.release();
        }
      });
    } catch (RuntimeException e) {
      slots.release();
      throw e;
    }
  }

  /**
   * The failure to report: the first, unless a member refused because of another one's failure
   * ({@link AbandonedMergeException}) came before that one.
   */
  private static Throwable cause(Throwable first, Throwable next) {
    return first == null || first instanceof AbandonedMergeException ? next : first;
  }

  /** Waits for every task handed out; throws the failure that stopped them, if any. */
  public void finish() throws IOException {
    try {
      awaitAll();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while merging");
    }
    Throwable failed = failure.get();
    if (failed != null) {
      Throwables.throwIfInstanceOf(failed, IOException.class);
      Throwables.throwIfUnchecked(failed);
      throw new IOException(failed);
    }
  }

  /** Waits for every task handed out (unless interrupted), failed or not. */
  @Override
  public void close() {
    try {
      awaitAll();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Returns once no task handed out is still running: every slot is free. */
  private void awaitAll() throws InterruptedException {
    slots.acquire(permits);
    slots.release(permits);
  }
}
