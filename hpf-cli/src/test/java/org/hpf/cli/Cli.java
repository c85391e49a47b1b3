package org.hpf.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs {@code hpf} in-process with captured streams. */
final class Cli {
  /** The outcome of one run: exit code, stdout bytes, stderr text. */
  record Result(int code, byte[] stdout, String stderr) {
    String out() {
      return new String(stdout, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
      return "exit " + code + "\n--- stdout:\n" + out() + "\n--- stderr:\n" + stderr;
    }
  }

  /**
   * A {@code --progress-interval} (ms) no command of a test outlasts: for tests that check every
   * line of stderr, which a slow machine would otherwise interleave with progress lines.
   */
  static final String NO_PROGRESS = "3600000";

  private Cli() {}

  static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      code = HpfCommand.execute(args, o, e);
    }
    return new Result(code, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
  }
}
