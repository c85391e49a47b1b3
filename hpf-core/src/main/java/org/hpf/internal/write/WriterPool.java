package org.hpf.internal.write;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A writer's thread pool: named daemon threads, so a stuck writer never keeps a JVM alive, and
 * a {@link #close} that returns only once every thread is gone. A pool reports itself terminated
 * while its last threads are still on their way out; a change that failed and cleaned up must
 * not return while one of them could still touch the archive.
 */
public final class WriterPool extends ThreadPoolExecutor implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WriterPool.class);
  private static final long STOP_MINUTES = 5;

  private final List<Thread> threads = new CopyOnWriteArrayList<>();

  private WriterPool(int threads) {
    super(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
  }

  static WriterPool start(int size) {
    return start("hpf-writer", size);
  }

  /** A pool of {@code size} threads named {@code name-1}, {@code name-2}, ... */
  public static WriterPool start(String name, int size) {
    WriterPool pool = new WriterPool(size);
    AtomicInteger counter = new AtomicInteger();
    pool.setThreadFactory(runnable -> {
      Thread thread = new Thread(runnable, name + "-" + counter.incrementAndGet());
      thread.setDaemon(true);
      pool.threads.add(thread);
      return thread;
    });
    return pool;
  }

  /**
   * Interrupts the tasks still running, then waits (up to five minutes, then warns) until
   * every thread of the pool has ended.
   */
  @Override
  public void close() {
    shutdownNow();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(STOP_MINUTES);
    try {
      for (Thread thread : threads) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left > 0) {
          thread.join(left);
        }
        if (thread.isAlive()) {
          LOG.warn("writer thread {} did not stop in {} minutes", thread.getName(),
              STOP_MINUTES);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
