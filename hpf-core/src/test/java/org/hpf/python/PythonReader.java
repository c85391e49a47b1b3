package org.hpf.python;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs the independent Python reader, {@code tools/hpf_read.py} (Python 3.11 standard library
 * only), as a process: the tests need {@code python3} on the PATH, nothing else.
 */
final class PythonReader {
  /** What one run printed and returned. */
  record Result(int exitCode, byte[] stdout, String stderr) {
    String out() {
      return new String(stdout, StandardCharsets.UTF_8);
    }
  }

  private PythonReader() {}

  /** The tool, from the module's directory (where Maven runs the tests). */
  static Path tool() {
    Path tool = Path.of("").toAbsolutePath().getParent().resolve("tools/hpf_read.py");
    assertTrue(Files.isRegularFile(tool), "the Python reader is missing: " + tool);
    return tool;
  }

  static Result run(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("python3", tool().toString()));
    command.addAll(List.of(args));
    Process process;
    try {
      process = new ProcessBuilder(command).start();
    } catch (IOException e) {
      throw new IOException("these tests need python3 (3.11 or later) on the PATH", e);
    }
    process.getOutputStream().close();
    CompletableFuture<byte[]> out = drain(process.getInputStream());
    CompletableFuture<byte[]> err = drain(process.getErrorStream());
    try {
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException("hpf_read.py " + args[0] + " ran over 120 s");
      }
      return new Result(process.exitValue(), out.join(),
          new String(err.join(), StandardCharsets.UTF_8));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IOException("interrupted", e);
    }
  }

  private static CompletableFuture<byte[]> drain(InputStream in) {
    return CompletableFuture.supplyAsync(() -> {
      try (in) {
        return in.readAllBytes();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
  }
}
