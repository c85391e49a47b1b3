package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How long commands show progress: lines when not on a terminal, a bar on one, or nothing. */
class ProgressOutputTest {
  private static final String ESC = "\u001b";

  @TempDir
  Path dir;

  /**
   * Run in-process, stdout is not a terminal: progress comes as plain lines on stderr, with no
   * escape sequence and no carriage return, for every command that shows progress.
   */
  @Test
  void notOnATerminalProgressIsPlainLines() throws IOException {
    TestTrees.write(dir.resolve("src"), 200, 9);
    TestTrees.write(dir.resolve("more"), java.util.Map.of("extra/x.bin", new byte[5000]));
    String archive = dir.resolve("a.hpf").toString();
    // An interval of 1 ms: several lines even for this small work.
    List<String[]> runs = List.of(
        new String[] {"create", "--progress-interval", "1", "--threads", "2",
            dir.resolve("src").toString(), archive},
        new String[] {"append", "--progress-interval", "1", archive,
            dir.resolve("more").toString()},
        new String[] {"extract", "--progress-interval", "1", archive,
            dir.resolve("out").toString()},
        new String[] {"verify", "--progress-interval", "1", archive},
        new String[] {"compact", "--progress-interval", "1", "--min-live", "1", archive});
    for (String[] args : runs) {
      Cli.Result r = Cli.run(args);
      assertEquals(ExitCodes.OK, r.code(), r::toString);
      String all = r.out() + r.stderr();
      assertFalse(all.contains(ESC), () -> args[0] + " printed an escape sequence:\n" + r);
      assertFalse(all.contains("\r"), () -> args[0] + " printed a carriage return:\n" + r);
      for (String line : r.stderr().lines().toList()) {
        assertTrue(line.startsWith("progress: "), () -> args[0] + ": " + line);
      }
      assertFalse(r.out().isEmpty(), () -> args[0] + " ends with a summary");
    }
    Cli.Result create = Cli.run("create", "--progress-interval", "1", "--threads", "2",
        dir.resolve("src").toString(), dir.resolve("b.hpf").toString());
    assertTrue(create.stderr().contains("progress: merging ") || create.stderr().contains(
        "progress: indexing "), create::toString);
    assertTrue(create.stderr().contains(" files, "), create::toString);
  }

  @Test
  void quietPrintsNothing() throws IOException {
    TestTrees.write(dir.resolve("src"), 50, 9);
    String archive = dir.resolve("a.hpf").toString();
    for (String[] args : List.of(
        new String[] {"create", "-q", "--progress-interval", "1", dir.resolve("src").toString(),
            archive},
        new String[] {"verify", "--quiet", "--progress-interval", "1", archive},
        new String[] {"extract", "-q", "--progress-interval", "1", archive,
            dir.resolve("out").toString()},
        new String[] {"compact", "-q", "--progress-interval", "1", archive})) {
      Cli.Result r = Cli.run(args);
      assertEquals(ExitCodes.OK, r.code(), r::toString);
      assertEquals("", r.out() + r.stderr(), () -> args[0] + " -q printed");
    }
  }

  /** The bar itself: redrawn with carriage returns, percentage and files, no ANSI colors. */
  @Test
  void barRedrawsInPlace() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    try (ProgressBarDisplay bar = new ProgressBarDisplay("create", err)) {
      bar.phase("merging");
      bar.started(4, 40 << 20);
      for (int i = 0; i < 4; i++) {
        bar.merged(10 << 20);
      }
      bar.phase("indexing");
    }
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(text.startsWith("\r"), text);
    assertTrue(text.contains("create 100%"), text);
    assertTrue(text.contains("40/40 MiB"), text);
    assertTrue(text.contains("4/4 files indexing"), text);
    assertTrue(text.endsWith("\n"), "the bar ends its line when it closes: " + text);
    assertFalse(text.contains(ESC), text);
  }

  @Test
  void barOfEmptyFilesCountsFiles() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ProgressBarDisplay bar = new ProgressBarDisplay("extract",
        new PrintStream(bytes, true, StandardCharsets.UTF_8))) {
      bar.started(3, 0);
      bar.merged(0);
      bar.merged(0);
      bar.merged(0);
    }
    assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("3/3 files"), bytes::toString);
  }

  @Test
  void modeFollowsQuietAndTerminal() {
    // In tests stdout is captured, never the JVM's terminal.
    Cli.Result r = Cli.run("ls", "--help");
    assertEquals(ExitCodes.OK, r.code());
    assertEquals(Progress.Mode.NONE, mode("-q"));
    assertEquals(Progress.Mode.LINES, mode());
  }

  private static Progress.Mode mode(String... options) {
    var cmd = HpfCommand.commandLine(new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(new ByteArrayOutputStream()));
    List<String> args = new java.util.ArrayList<>(List.of("verify"));
    args.addAll(List.of(options));
    args.add("x.hpf");
    cmd.parseArgs(args.toArray(new String[0]));
    VerifyCommand verify = cmd.getSubcommands().get("verify").getCommand();
    return verify.progressMode();
  }
}
