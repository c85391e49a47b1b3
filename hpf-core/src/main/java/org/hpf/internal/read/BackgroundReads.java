package org.hpf.internal.read;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Daemon threads for the reads a reader starts beside a caller's own: a part's preamble check,
 * a bucket's records read whole. A caller may hold no thread to spare, so these have their own.
 */
final class BackgroundReads {
  static final ExecutorService THREADS = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "hpf-background-read");
    thread.setDaemon(true);
    return thread;
  });

  private BackgroundReads() {}
}
