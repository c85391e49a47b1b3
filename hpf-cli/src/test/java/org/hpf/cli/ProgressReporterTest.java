package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

class ProgressReporterTest {
  @Test
  void lineShowsPhaseFilesBytesAndRate() {
    try (ProgressReporter progress =
        new ProgressReporter(new PrintStream(new ByteArrayOutputStream()), 60_000)) {
      progress.started(3, 3 << 20);
      progress.phase("merging");
      progress.merged(1 << 20);
      progress.merged(1 << 20);
      String line = progress.line();
      assertTrue(line.startsWith("progress: merging 2/3 files, 2.0 MiB/3.0 MiB, "), line);
      assertTrue(line.contains("/s, "), line);
    }
  }
}
