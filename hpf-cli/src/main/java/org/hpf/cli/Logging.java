package org.hpf.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;

/**
 * Log levels for one run of a subcommand. Hadoop logs through log4j 1 (reload4j);
 * {@code log4j.properties} in this module sets WARN so that hpf's own output stays readable, and
 * a run adjusts it here. {@link #close()} restores the levels, so that in-process runs (tests)
 * do not leak settings into each other.
 */
final class Logging implements AutoCloseable {
  private final Map<Logger, Level> previous = new LinkedHashMap<>();

  /**
   * {@code --verbose}: hpf's own log at INFO (why HDFS features failed, with the trace), and the
   * libraries' warnings (S3A, the AWS SDK, Hadoop), which {@code log4j.properties} keeps to
   * errors otherwise.
   */
  void verbose() {
    set("org.hpf", Level.INFO);
    set("org.hpf.internal.hdfs.CachePinning", Level.DEBUG);
    set(null, Level.WARN);
  }

  /**
   * For the demo: the in-process cluster logs expected warnings (no native library, metrics
   * configuration, ...) that say nothing about hpf; show only its errors.
   */
  void quietCluster() {
    set("org.apache.hadoop", Level.ERROR);
    set("org.eclipse.jetty", Level.ERROR);
  }

  /** DataNodes log an ERROR when they are stopped ("Command processor encountered interrupt"). */
  void quietClusterShutdown() {
    set("org.apache.hadoop.hdfs.server.datanode", Level.OFF);
  }

  /** Whether the process, about to exit, should keep quiet the file systems' closing. */
  private static volatile boolean quietExit;

  /**
   * After a failure hpf reported without {@code --verbose}: the HDFS client's close of the file
   * systems at exit would report again, as an ERROR with a stack trace, each stream that the
   * failure left open (a pipeline that broke cannot be closed, and so is never let go).
   */
  static void failureReported(boolean verbose) {
    quietExit = !verbose;
  }

  /** Called by {@code main} just before it exits, when the shutdown hooks close file systems. */
  static void beforeExit() {
    if (quietExit) {
      try {
        Logger.getLogger("org.apache.hadoop.hdfs.DFSClient").setLevel(Level.OFF);
      } catch (LinkageError e) {
        // another logging backend
      }
    }
  }

  /** Sets the level of logger {@code name} (null: the root logger) for this run. */
  private void set(String name, Level level) {
    try {
      Logger logger = name == null ? Logger.getRootLogger() : Logger.getLogger(name);
      previous.putIfAbsent(logger, logger.getLevel());
      logger.setLevel(level);
    } catch (LinkageError e) {
      // Another logging backend is in use: leave its configuration alone.
    }
  }

  @Override
  public void close() {
    previous.forEach(Logger::setLevel);
    previous.clear();
  }
}
