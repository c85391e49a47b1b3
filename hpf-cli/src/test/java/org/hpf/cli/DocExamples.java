package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * Runs the examples of a Markdown document as a test: {@code bash} blocks run in bash;
 * {@code console} blocks are transcripts whose {@code $ hpf ...} lines run in-process
 * ({@link HpfCommand#execute}), {@code $ echo $?} prints the previous exit code and other
 * {@code $ ...} lines run in bash. The lines under a command are its expected output (stdout,
 * then stderr), where {@code ...} matches any text and a line of only {@code ...} any number of
 * lines. A command that fails is an error unless the next step is {@code echo $?}. Everything
 * runs in one working directory, which plain relative paths of the in-process runs resolve
 * against too.
 */
final class DocExamples {
  /** A fenced block: its info string, first line number and lines. */
  record Block(String language, int line, List<String> lines) {
    boolean contains(String text) {
      return lines.stream().anyMatch(l -> l.contains(text));
    }
  }

  /** One {@code $ command} of a transcript, with its expected output. */
  record Step(String command, int line, List<String> expected) {}

  private final Path workDir;
  private int lastExit;

  DocExamples(Path workDir) {
    this.workDir = workDir;
  }

  /** The {@code docs/} file of the source tree (tests run in the module's directory). */
  static Path doc(String name) {
    Path path = Path.of("..", "docs", name);
    if (!Files.isRegularFile(path)) {
      fail("cannot find " + path.toAbsolutePath());
    }
    return path;
  }

  static List<Block> blocks(Path markdown) throws IOException {
    List<String> lines = Files.readAllLines(markdown, StandardCharsets.UTF_8);
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("```") && line.length() > 3) {
        String language = line.substring(3).strip();
        int start = i + 1;
        List<String> body = new ArrayList<>();
        while (++i < lines.size() && !lines.get(i).startsWith("```")) {
          body.add(lines.get(i));
        }
        blocks.add(new Block(language, start, body));
      }
    }
    return blocks;
  }

  static List<Step> steps(Block block) {
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < block.lines().size(); i++) {
      String line = block.lines().get(i);
      if (!line.startsWith("$ ")) {
        fail("line " + (block.line() + i + 1) + ": output before any command: " + line);
      }
      List<String> expected = new ArrayList<>();
      int commandLine = block.line() + i + 1;
      while (i + 1 < block.lines().size() && !block.lines().get(i + 1).startsWith("$ ")) {
        expected.add(block.lines().get(++i));
      }
      steps.add(new Step(line.substring(2), commandLine, expected));
    }
    return steps;
  }

  /** Runs a block of the document. */
  void run(Block block) throws Exception {
    switch (block.language()) {
      case "bash" -> {
        Output output = bash(String.join("\n", block.lines()));
        assertEquals(0, output.code(), () -> "bash block at line " + block.line() + " failed:\n"
            + output.text());
      }
      case "console" -> {
        List<Step> steps = steps(block);
        for (int i = 0; i < steps.size(); i++) {
          Step step = steps.get(i);
          Output output = execute(step.command());
          check(step, output);
          boolean checked = i + 1 < steps.size() && steps.get(i + 1).command().equals("echo $?");
          if (output.code() != 0 && !checked) {
            fail("line " + step.line() + ": `" + step.command() + "` exited " + output.code()
                + " (show it with `$ echo $?` if that is expected):\n" + output.text());
          }
        }
      }
      default -> {
        // Not an example (text, java, ...).
      }
    }
  }

  /** Runs one command line as the transcript says. */
  Output execute(String command) throws Exception {
    if (command.equals("echo $?")) {
      return new Output(0, lastExit + "\n");
    }
    Output output;
    if (command.startsWith("hpf ")) {
      output = hpf(split(command.substring(4)));
    } else {
      output = bash(command);
    }
    lastExit = output.code();
    return output;
  }

  /** Fails unless the output is what the document shows under the step. */
  static void check(Step step, Output output) {
    List<String> actual = output.text().lines().map(DocExamples::stripEnd)
        .collect(Collectors.toList());
    List<String> expected = step.expected().stream().map(DocExamples::stripEnd)
        .collect(Collectors.toList());
    if (!matches(expected, 0, actual, 0)) {
      fail("line " + step.line() + ": `" + step.command() + "` printed\n"
          + String.join("\n", actual) + "\n--- but the document says\n"
          + String.join("\n", expected));
    }
  }

  /** Runs hpf in-process with relative paths resolved against the working directory. */
  private Output hpf(List<String> args) {
    List<String> withOptions = new ArrayList<>(args);
    if (!args.isEmpty() && SUBCOMMANDS_WITH_COMMON_OPTIONS.contains(args.get(0))) {
      // No periodic progress lines: they would depend on the machine's speed.
      withOptions.add(1, "--progress-interval=0");
    }
    try {
      FileSystem local = FileSystem.getLocal(new Configuration());
      org.apache.hadoop.fs.Path previous = local.getWorkingDirectory();
      local.setWorkingDirectory(new org.apache.hadoop.fs.Path(workDir.toUri()));
      try {
        Cli.Result r = Cli.run(withOptions.toArray(new String[0]));
        return new Output(r.code(), r.out() + r.stderr());
      } finally {
        local.setWorkingDirectory(previous);
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static final Set<String> SUBCOMMANDS_WITH_COMMON_OPTIONS = Set.of("create", "append", "get",
      "cat", "extract", "ls", "rm", "compact", "recover", "info", "verify", "demo");

  private Output bash(String script) throws Exception {
    ProcessBuilder builder = new ProcessBuilder("bash", "-euo", "pipefail", "-c", script)
        .directory(workDir.toFile()).redirectErrorStream(true);
    builder.environment().put("LC_ALL", "C.UTF-8");
    Process process = builder.start();
    process.getOutputStream().close();
    String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail("bash did not finish: " + script);
    }
    return new Output(process.exitValue(), text);
  }

  /** Exit code and everything printed (stdout, then stderr). */
  record Output(int code, String text) {}

  /** Splits a command line as a POSIX shell would (quotes and backslashes; no expansions). */
  static List<String> split(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == ' ' || c == '\t') {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
        continue;
      }
      if (word == null) {
        word = new StringBuilder();
      }
      if (c == '\'') {
        int end = line.indexOf('\'', i + 1);
        word.append(line, i + 1, end);
        i = end;
      } else if (c == '"') {
        for (i++; line.charAt(i) != '"'; i++) {
          if (line.charAt(i) == '\\' && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) {
            i++;
          }
          word.append(line.charAt(i));
        }
      } else if (c == '\\') {
        word.append(line.charAt(++i));
      } else {
        word.append(c);
      }
    }
    if (word != null) {
      words.add(word.toString());
    }
    return words;
  }

  static boolean matches(List<String> patterns, int p, List<String> actual, int a) {
    if (p == patterns.size()) {
      return a == actual.size();
    }
    String pattern = patterns.get(p);
    if (pattern.equals("...")) {
      for (int k = a; k <= actual.size(); k++) {
        if (matches(patterns, p + 1, actual, k)) {
          return true;
        }
      }
      return false;
    }
    return a < actual.size() && lineMatches(pattern, actual.get(a))
        && matches(patterns, p + 1, actual, a + 1);
  }

  static boolean lineMatches(String pattern, String line) {
    String[] parts = pattern.split("\\.\\.\\.", -1);
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        regex.append(".*");
      }
      regex.append(Pattern.quote(parts[i]));
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(line).matches();
  }

  private static String stripEnd(String s) {
    return s.stripTrailing();
  }
}
