package org.hpf.bench.s3;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;

/**
 * The requests an S3A client sent, those the local server answered meanwhile (where the run
 * has one), and the time passed from the meter's start to its first reading.
 */
final class Meter {
  private final FileSystem fs;
  private final RequestCounts before;
  private final ServerLog server;
  private final int serverMark;
  private final long startNanos;
  private long endNanos;

  private Meter(FileSystem fs, ServerLog server) throws IOException {
    this.fs = fs;
    this.server = server;
    this.serverMark = server == null ? 0 : server.mark();
    this.before = RequestCounts.of(fs);
    this.startNanos = System.nanoTime();
  }

  /** A meter of {@code fs}, a client of {@code target}. */
  static Meter on(S3Target target, FileSystem fs) throws IOException {
    return new Meter(fs, target.serverLog());
  }

  /** The requests since the start; the streams of what was measured must be closed. */
  RequestCounts requests() throws IOException {
    stop();
    RequestCounts sent = RequestCounts.of(fs).minus(before);
    return server == null ? sent : sent.withAtServer(server.since(serverMark));
  }

  double millis() {
    stop();
    return (endNanos - startNanos) / 1e6;
  }

  /** Ends the time measured before the server's log is read. */
  private void stop() {
    if (endNanos == 0) {
      endNanos = System.nanoTime();
    }
  }
}
