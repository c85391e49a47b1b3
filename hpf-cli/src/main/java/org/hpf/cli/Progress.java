package org.hpf.cli;

import java.io.PrintStream;
import org.hpf.ProgressListener;
import org.hpf.internal.read.ArchiveVerifier;

/**
 * Progress of one long command (files and bytes done of a total, rate, time left), shown as the
 * run allows: a progress bar when standard output is a terminal ({@link ProgressBarDisplay}),
 * a plain line on stderr every couple of seconds otherwise ({@link ProgressReporter}), nothing
 * with {@code --quiet}. Callers report work through the writer's {@link ProgressListener}
 * methods from any thread; {@link #close()} ends the display.
 */
abstract class Progress implements ProgressListener, ArchiveVerifier.Progress, AutoCloseable {
  /** How progress is shown. */
  enum Mode {
    /** A bar redrawn in place (carriage returns only: no ANSI escapes). */
    BAR,
    /** A plain line per interval, for logs and pipes. */
    LINES,
    /** Nothing ({@code --quiet}). */
    NONE
  }

  /** Unknown total (files or bytes). */
  static final long UNKNOWN = -1;

  static Progress create(Mode mode, String task, PrintStream err, long intervalMillis) {
    return switch (mode) {
      case BAR -> new ProgressBarDisplay(task, err);
      case LINES -> new ProgressReporter(err, intervalMillis);
      case NONE -> new Progress() {
        @Override
        public void close() {}
      };
    };
  }

  /** Bytes of work done that finish no file (a compaction's copying). */
  void bytes(long bytes) {}

  /** Verification checked one member of this length. */
  @Override
  public void member(long bytes) {
    merged(bytes);
  }

  @Override
  public abstract void close();
}
