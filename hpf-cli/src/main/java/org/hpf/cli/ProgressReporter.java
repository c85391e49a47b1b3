package org.hpf.cli;

import java.io.PrintStream;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.hpf.write.ProgressListener;

/**
 * Progress of a create as a plain line on stderr once per interval (phase, files done/total,
 * bytes, rate); nothing for a create that ends within the first interval. The only class that
 * knows how progress looks, so that a progress bar can replace it.
 */
final class ProgressReporter implements ProgressListener, AutoCloseable {
  private final PrintStream err;
  private final long intervalMillis;
  private final AtomicLong filesDone = new AtomicLong();
  private final AtomicLong bytesDone = new AtomicLong();
  private volatile long filesTotal;
  private volatile long bytesTotal;
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
    if (timer == null) {
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
  public void phase(String name) {
    phase = name;
  }

  /** The line printed now (package-private for tests). */
  String line() {
    double millis = (System.nanoTime() - start) / 1e6;
    return "hpf: " + phase + ": " + Units.count(filesDone.get()) + "/" + Units.count(filesTotal)
        + " files, " + Units.bytes(bytesDone.get()) + "/" + Units.bytes(bytesTotal) + ", "
        + Units.rate(bytesDone.get(), millis) + ", " + Units.millis(millis);
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
