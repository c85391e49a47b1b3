package org.hpf.cli;

import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress as a bar on the terminal (me.tongfei:progressbar): percentage, bytes done of the
 * total, elapsed time and ETA, rate, then files done and the phase. Redrawn in place with a
 * carriage return on stderr, so standard output stays clean for results. The bar counts bytes;
 * when every file is empty it counts files.
 */
final class ProgressBarDisplay extends Progress {
  private final String task;
  private final PrintStream err;
  private final AtomicLong filesDone = new AtomicLong();
  private volatile long filesTotal = UNKNOWN;
  private volatile String phase = "";
  private volatile boolean countsBytes = true;
  private ProgressBar bar;
  private LineEndingConsumer consumer;

  ProgressBarDisplay(String task, PrintStream err) {
    this.task = task;
    this.err = err;
  }

  @Override
  public synchronized void started(long files, long bytes) {
    if (bar != null) {
      return;
    }
    filesTotal = files;
    countsBytes = bytes > 0 || files <= 0;
    long max = countsBytes ? Math.max(bytes, 0) : files;
    ProgressBarBuilder builder = new ProgressBarBuilder()
        .setTaskName(task)
        .setInitialMax(max)
        .setStyle(utf8() ? ProgressBarStyle.UNICODE_BLOCK : ProgressBarStyle.ASCII)
        .setConsumer(consumer = new LineEndingConsumer(err))
        .setUpdateIntervalMillis(250)
        .showSpeed();
    if (countsBytes) {
      String[] unit = unit(max);
      builder.setUnit(unit[0], Long.parseLong(unit[1]));
    } else {
      builder.setUnit(" files", 1);
    }
    bar = builder.build();
    bar.setExtraMessage(message());
  }

  /** The unit for a total: its name (with the leading space the bar prints) and size. */
  static String[] unit(long bytes) {
    if (bytes >= (10L << 30)) {
      return new String[] {" GiB", Long.toString(1L << 30)};
    }
    if (bytes >= (10L << 20)) {
      return new String[] {" MiB", Long.toString(1L << 20)};
    }
    if (bytes >= (10L << 10)) {
      return new String[] {" KiB", Long.toString(1L << 10)};
    }
    return new String[] {" B", "1"};
  }

  private static boolean utf8() {
    String encoding = System.getProperty("stdout.encoding",
        System.getProperty("sun.stdout.encoding", Charset.defaultCharset().name()));
    return StandardCharsets.UTF_8.name().equalsIgnoreCase(encoding)
        || "UTF8".equalsIgnoreCase(encoding);
  }

  private String message() {
    long total = filesTotal;
    // Printed right after the rate, and cut at the terminal's width: files first.
    return (total == UNKNOWN ? "" : " " + Units.count(filesDone.get()) + "/"
        + Units.count(total) + " files") + (phase.isEmpty() ? "" : " " + phase);
  }

  @Override
  public void merged(long bytes) {
    filesDone.incrementAndGet();
    ProgressBar current = bar;
    if (current != null) {
      current.stepBy(countsBytes ? bytes : 1);
      current.setExtraMessage(message());
    }
  }

  @Override
  void bytes(long bytes) {
    ProgressBar current = bar;
    if (current != null && countsBytes) {
      current.stepBy(bytes);
    }
  }

  @Override
  public void phase(String name) {
    phase = name;
    ProgressBar current = bar;
    if (current != null) {
      current.setExtraMessage(message());
    }
  }

  @Override
  public synchronized void close() {
    if (bar != null) {
      bar.close();
      bar = null;
      if (!consumer.closed) {
        // progressbar 0.10.2 skips its closing newline when it is closed before its first
        // scheduled redraw ran (work shorter than the update interval on a busy machine).
        consumer.close();
      }
      err.flush();
    }
  }

  /** The console consumer, noting whether the bar ended its line. */
  private static final class LineEndingConsumer extends ConsoleProgressBarConsumer {
    private volatile boolean closed;

    LineEndingConsumer(PrintStream out) {
      super(out);
    }

    @Override
    public void close() {
      closed = true;
      super.close();
    }
  }
}
