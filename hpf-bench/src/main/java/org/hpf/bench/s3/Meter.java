package org.hpf.bench.s3;

import org.apache.hadoop.fs.FileSystem;

/** The requests an S3A client sent and the time passed since the meter started. */
final class Meter {
  private final FileSystem fs;
  private final RequestCounts before;
  private final long startNanos;

  private Meter(FileSystem fs) {
    this.fs = fs;
    this.before = RequestCounts.of(fs);
    this.startNanos = System.nanoTime();
  }

  static Meter on(FileSystem fs) {
    return new Meter(fs);
  }

  /** The requests since the start; the streams of what was measured must be closed. */
  RequestCounts requests() {
    return RequestCounts.of(fs).minus(before);
  }

  double millis() {
    return (System.nanoTime() - startNanos) / 1e6;
  }
}
