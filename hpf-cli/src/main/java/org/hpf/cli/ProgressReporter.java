package org.hpf.cli;

import java.io.PrintStream;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Progress as a plain line on stderr once per interval, {@code progress: <phase> <files
 * done/total>, <bytes>, <rate>, <time so far>, <time left>}; nothing for work that ends within the first interval. For runs whose
 * output is not a terminal: no carriage returns, no escapes, one line at a time.
 */
final class ProgressReporter extends Progress {
  private final PrintStream err;
  private final long intervalMillis;
  private final AtomicLong filesDone = new AtomicLong();
  private final AtomicLong bytesDone = new AtomicLong();
  private volatile long filesTotal = UNKNOWN;
  private volatile long bytesTotal = UNKNOWN;
  private volatile String phase = "starting";
  private final long start = System.nanoTime();
  private ScheduledExecutorService timer;

  ProgressReporter(PrintStream err, long intervalMillis) {
    this.err = err;
    this.intervalMillis = intervalMillis;
  }

  @Override
  public synchronized void started(long files, long bytes) {
    filesTotal = files;
    bytesTotal = bytes;
    if (timer == null && intervalMillis > 0) {
      timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "hpf-progress");
        thread.setDaemon(true);
        return thread;
      });
      timer.scheduleAtFixedRate(this::print, intervalMillis, intervalMillis,
          TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public void merged(long bytes) {
    filesDone.incrementAndGet();
    bytesDone.addAndGet(bytes);
  }

  @Override
  void bytes(long bytes) {
    bytesDone.addAndGet(bytes);
  }

  @Override
  public void phase(String name) {
    phase = name;
  }

  /** The line printed now (package-private for tests). */
  String line() {
    double millis = (System.nanoTime() - start) / 1e6;
    long files = filesDone.get();
    long bytes = bytesDone.get();
    // Not "hpf: ", the prefix of errors and warnings: a progress line is neither.
    StringBuilder line = new StringBuilder("progress: ").append(phase).append(' ');
    if (filesTotal != UNKNOWN) {
      line.append(Units.count(files)).append('/').append(Units.count(filesTotal))
          .append(" files, ");
    }
    line.append(Units.bytes(bytes));
    if (bytesTotal != UNKNOWN) {
      line.append('/').append(Units.bytes(bytesTotal));
    }
    line.append(", ").append(Units.rate(bytes, millis)).append(", ").append(Units.millis(millis));
    if (bytesTotal > 0 && bytes > 0 && bytes < bytesTotal) {
      line.append(", ").append(Units.millis(millis * (bytesTotal - bytes) / bytes))
          .append(" left");
    }
    return line.toString();
  }

  private void print() {
    err.println(line());
    err.flush();
  }

  @Override
  public synchronized void close() {
    if (timer != null) {
      timer.shutdownNow();
      timer = null;
    }
  }
}
