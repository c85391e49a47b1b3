package org.hpf.cli;

import java.util.ArrayList;
import java.util.List;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;

/**
 * What the log would print while it is open: every event that passes its logger's level, as
 * the console appender of {@code log4j.properties} receives it (an in-process run's log goes to
 * the JVM's own stderr, not to the stream the test captures).
 */
final class CapturedLog implements AutoCloseable {
  /** One event: its level, logger and message. */
  record Event(Level level, String logger, String message) {
    @Override
    public String toString() {
      return level + " " + logger + " - " + message;
    }
  }

  private final List<Event> events = new ArrayList<>();
  private final AppenderSkeleton appender = new AppenderSkeleton() {
    @Override
    protected void append(LoggingEvent event) {
      synchronized (events) {
        events.add(new Event(event.getLevel(), event.getLoggerName(),
            event.getRenderedMessage()));
      }
    }

    @Override
    public void close() {}

    @Override
    public boolean requiresLayout() {
      return false;
    }
  };

  CapturedLog() {
    Logger.getRootLogger().addAppender(appender);
  }

  /** The events so far. */
  List<Event> events() {
    synchronized (events) {
      return List.copyOf(events);
    }
  }

  /** The events of loggers outside hpf's own ({@code org.hpf}). */
  List<Event> libraries() {
    return events().stream().filter(e -> !e.logger().startsWith("org.hpf")).toList();
  }

  @Override
  public void close() {
    Logger.getRootLogger().removeAppender(appender);
  }
}
