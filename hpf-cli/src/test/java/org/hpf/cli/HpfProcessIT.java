package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/hpf} as a real process, the way users run it: the README's session, an error's
 * exit code, shell completion and the progress bar on a pseudo-terminal. Runs in failsafe's
 * integration-test phase, after {@code package} built the jar and {@code target/lib}.
 */
class HpfProcessIT {
  private static Path root;

  @TempDir
  Path dir;

  @BeforeAll
  static void findTheBuild() {
    root = Path.of(System.getProperty("hpf.root", "..")).toAbsolutePath().normalize();
    String version = System.getProperty("hpf.version");
    assertTrue(Files.isExecutable(root.resolve("bin/hpf")), "bin/hpf under " + root);
    if (version != null) {
      // Under failsafe the jar must be there: a missing jar is a build bug, not a skip.
      assertTrue(Files.isRegularFile(root.resolve("hpf-cli/target/hpf-cli-" + version + ".jar")),
          "the packaged jar");
    }
  }

  /** Exit code, stdout and stderr of one process. */
  record Run(int code, String out, String err) {
    @Override
    public String toString() {
      return "exit " + code + "\n--- stdout:\n" + out + "\n--- stderr:\n" + err;
    }
  }

  private Run run(String... command) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile());
    builder.environment().put("LC_ALL", "C.UTF-8");
    // Short runs: C1 alone and the serial collector start the JVM with less CPU.
    builder.environment().put("JAVA_OPTS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
    File out = dir.resolve("stdout-" + System.nanoTime()).toFile();
    File err = dir.resolve("stderr-" + System.nanoTime()).toFile();
    builder.redirectOutput(out).redirectError(err).redirectInput(ProcessBuilder.Redirect.PIPE);
    Process process = builder.start();
    process.getOutputStream().close();
    if (!process.waitFor(3, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError("did not finish: " + String.join(" ", command));
    }
    return new Run(process.exitValue(), Files.readString(out.toPath(), StandardCharsets.UTF_8),
        Files.readString(err.toPath(), StandardCharsets.UTF_8));
  }

  /** The README's five-line session, its /tmp/ paths moved into this test's directory. */
  @Test
  void readmeSession() throws Exception {
    List<String> session = readmeSessionLines();
    assertEquals(5, session.size(), session::toString);
    List<Run> runs = new ArrayList<>();
    for (String line : session) {
      String command = line.replace("/tmp/", dir.toString() + "/");
      Run r = run("bash", "-c", command);
      assertEquals(0, r.code(), () -> command + "\n" + r);
      assertNoEscapes(r);
      runs.add(r);
    }
    assertTrue(runs.get(0).out().startsWith("created " + "file:" + dir + "/src.hpf"),
        runs.get(0)::toString);
    assertTrue(runs.get(1).out().contains(" org/hpf/read/HpfReader.java\n"),
        runs.get(1)::toString);
    assertEquals(Files.readString(root.resolve(
            "hpf-core/src/main/java/org/hpf/read/HpfReader.java")),
        Files.readString(dir.resolve("HpfReader.java")));
    assertTrue(runs.get(3).out().contains("format version         1"), runs.get(3)::toString);
    assertTrue(runs.get(4).out().startsWith("verified "), runs.get(4)::toString);
  }

  private static List<String> readmeSessionLines() throws IOException {
    List<String> lines = Files.readAllLines(root.resolve("README.md"));
    int start = lines.indexOf("## Using it");
    while (!lines.get(start).equals("```bash")) {
      start++;
    }
    List<String> session = new ArrayList<>();
    for (int i = start + 1; !lines.get(i).equals("```"); i++) {
      session.add(lines.get(i));
    }
    return session;
  }

  @Test
  void errorsExitWithTheirCode() throws Exception {
    Run missing = run("bin/hpf", "ls", dir.resolve("missing.hpf").toString());
    assertEquals(ExitCodes.NOT_FOUND, missing.code(), missing::toString);
    assertEquals("hpf: archive does not exist: file:" + dir.resolve("missing.hpf") + "\n",
        missing.err());
    assertEquals("", missing.out());
  }

  /** The completion script loads in bash and registers a completion for hpf. */
  @Test
  void completionLoadsInBash() throws Exception {
    Run r = run("bash", "-c", "source <(bin/hpf generate-completion) && complete -p hpf");
    assertEquals(0, r.code(), r::toString);
    assertTrue(r.out().contains("_complete_hpf") && r.out().strip().endsWith(" hpf"),
        r::toString);
  }

  /**
   * On a terminal (a pseudo-terminal made by script(1)), verify draws a progress bar: carriage
   * returns, a percentage, the phase.
   */
  @Test
  void progressBarOnATerminal() throws Exception {
    assumeTrue(new File("/usr/bin/script").canExecute() || new File("/bin/script").canExecute(),
        "script(1) (util-linux) is not installed: no pseudo-terminal to test the bar on");
    Path src = dir.resolve("src");
    TestTrees.write(src, 300, 4);
    Path archive = dir.resolve("a.hpf");
    TestTrees.create(src, archive);
    Run r = run("script", "-qec", "bin/hpf verify " + archive, "/dev/null");
    assertEquals(0, r.code(), r::toString);
    assertTrue(r.out().contains("\r"), r::toString);
    assertTrue(r.out().contains("verify 100%"), r::toString);
    assertTrue(r.out().contains("300/300 files"), r::toString);
    assertTrue(r.out().contains("verified file:"), r::toString);
  }

  private static void assertNoEscapes(Run r) {
    assertFalse((r.out() + r.err()).contains("\u001b"), r::toString);
    assertFalse((r.out() + r.err()).contains("\r"), r::toString);
  }
}
