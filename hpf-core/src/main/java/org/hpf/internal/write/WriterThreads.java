package org.hpf.internal.write;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** The writer's thread pool: named daemon threads, so a stuck writer never keeps a JVM alive. */
final class WriterThreads {
  private WriterThreads() {}

  static ExecutorService pool(int threads) {
    AtomicInteger counter = new AtomicInteger();
    return Executors.newFixedThreadPool(threads, runnable -> {
      Thread thread = new Thread(runnable, "hpf-writer-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }
}
