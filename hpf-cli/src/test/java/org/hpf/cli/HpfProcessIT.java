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
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hpf.minicluster.S3Server;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
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
    return run(Map.of(), command);
  }

  /** Short runs: C1 alone and the serial collector start the JVM with less CPU. */
  private static final String JAVA_OPTS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

  /** Runs {@code command} with these environment variables ("" removes one). */
  private Run run(Map<String, String> env, String... command)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile());
    builder.environment().put("LC_ALL", "C.UTF-8");
    builder.environment().put("JAVA_OPTS", JAVA_OPTS);
    env.forEach((name, value) -> {
      if (value.isEmpty()) {
        builder.environment().remove(name);
      } else {
        builder.environment().put(name, value);
      }
    });
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
    assertTrue(runs.get(1).out().contains(" org/hpf/HpfArchive.java\n"),
        runs.get(1)::toString);
    assertEquals(Files.readString(root.resolve(
            "hpf-core/src/main/java/org/hpf/HpfArchive.java")),
        Files.readString(dir.resolve("HpfArchive.java")));
    assertTrue(runs.get(3).out().contains("format version         6"), runs.get(3)::toString);
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

  /**
   * Without a heap size in JAVA_OPTS (or the JDK's variables), bin/hpf gives the JVM 1 GiB, or
   * 64 MiB per core where that is more; a size the user gives wins, -Xmx or another.
   */
  @Test
  void defaultHeap() throws Exception {
    Run cores = run("bash", "-c", "nproc 2>/dev/null || getconf _NPROCESSORS_ONLN");
    long expected = Math.max(1024, 64 * Long.parseLong(cores.out().strip())) << 20;
    Map<String, String> clean = Map.of("JDK_JAVA_OPTIONS", "", "JAVA_TOOL_OPTIONS", "");
    assertEquals(expected, maxHeapSize(clean, ""));
    assertEquals(200L << 20, maxHeapSize(clean, "-Xmx200m"));
    assertEquals(300L << 20, maxHeapSize(Map.of("JDK_JAVA_OPTIONS", "-Xmx300m",
        "JAVA_TOOL_OPTIONS", ""), ""));
    assertEquals(320L << 20, maxHeapSize(clean, "-XX:MaxHeapSize=320m"));
    // The JVM's own sizing from a memory size (a quarter of it).
    assertTrue(maxHeapSize(clean, "-XX:MaxRAM=512m") <= 512L << 20);
    // An option's value that merely contains -Xmx is not a heap size.
    assertEquals(expected, maxHeapSize(clean, "-Dnote=-Xmx5m"));
  }

  /** The JVM's MaxHeapSize when bin/hpf runs with these JAVA_OPTS and environment. */
  private long maxHeapSize(Map<String, String> env, String javaOpts) throws Exception {
    Map<String, String> all = new java.util.HashMap<>(env);
    all.put("JAVA_OPTS", JAVA_OPTS + " -XX:+PrintFlagsFinal " + javaOpts);
    Run r = run(all, "bin/hpf", "--version");
    assertEquals(0, r.code(), r::toString);
    Matcher m = Pattern.compile("(?m)^\\s*size_t MaxHeapSize\\s+= (\\d+)").matcher(r.out());
    assertTrue(m.find(), r::toString);
    return Long.parseLong(m.group(1));
  }

  /**
   * {@code hpf create} in a heap too small for its members (up to 16 MiB are read whole): one
   * line that says the heap ran out and how to raise it, exit code 1, no stack trace, and the
   * half-built archive and its scratch files are gone.
   */
  @Test
  void createOutOfMemory() throws Exception {
    Path big = bigFiles();
    Path archive = dir.resolve("big.hpf");
    Path scratch = dir.resolve("scratch");
    Run r = run(Map.of("JAVA_OPTS", JAVA_OPTS + " -Xmx32m"), "bin/hpf", "create", "-q",
        "--threads", "2", "--scratch-dir", scratch.toString(), big.toString(),
        archive.toString());
    assertOutOfMemoryIn32Mib(r);
    assertFalse(Files.exists(archive), "no half-built archive: " + r);
    assertEquals(Map.of(), Files.exists(scratch) ? TestTrees.files(scratch) : Map.of(),
        "no scratch file");
  }

  /** {@code hpf append} out of memory: the same line, and the archive is as it was. */
  @Test
  void appendOutOfMemory() throws Exception {
    Path small = dir.resolve("small");
    TestTrees.write(small, 20, 1);
    Path archive = dir.resolve("a.hpf");
    TestTrees.create(small, archive);
    Map<String, Long> before = TestTrees.files(archive);
    Run r = run(Map.of("JAVA_OPTS", JAVA_OPTS + " -Xmx32m"), "bin/hpf", "append", "-q",
        "--threads", "2", archive.toString(), bigFiles().toString());
    assertOutOfMemoryIn32Mib(r);
    assertEquals(before, TestTrees.files(archive), "no journal, part or index file left: " + r);
    assertEquals(20, TestTrees.ls(archive.toString()).size());
  }

  /** Three 15 MiB files of random bytes, under {@code big/}. */
  private Path bigFiles() throws IOException {
    Path big = dir.resolve("big");
    Files.createDirectories(big.resolve("large"));
    Random random = new Random(15);
    byte[] bytes = new byte[15 << 20];
    for (int i = 0; i < 3; i++) {
      random.nextBytes(bytes);
      Files.write(big.resolve("large/file-" + i + ".bin"), bytes);
    }
    return big;
  }

  private static void assertOutOfMemoryIn32Mib(Run r) {
    assertEquals(ExitCodes.ERROR, r.code(), r::toString);
    assertEquals("", r.out(), r::toString);
    List<String> lines = r.err().lines().toList();
    assertEquals(1, lines.size(), r::toString);
    assertFalse(r.err().contains("\tat ") || r.err().contains("at org."), r::toString);
    Matcher m = Pattern.compile("hpf: out of memory \\(Java heap space\\): the Java heap may use"
        + " at most (\\d+) MiB; give it more with JAVA_OPTS=-Xmx(\\d+)m").matcher(lines.get(0));
    assertTrue(m.matches(), r::toString);
    // This JVM's maximum (-Xmx32m less a survivor space), and a size to try above it.
    int mib = Integer.parseInt(m.group(1));
    assertTrue(mib > 16 && mib <= 32, r::toString);
    assertEquals(64, Integer.parseInt(m.group(2)), r::toString);
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

  /**
   * s3a:// out of the box: bin/hpf with the usual S3A settings (a site file, and -D) creates an
   * archive in a bucket of the tests' S3-protocol server, reads a member back exactly, and
   * says in one line, and no log line, that a bucket does not exist.
   */
  @Test
  @Tag("s3")
  void createsAndReadsAnArchiveOnS3() throws Exception {
    Path src = dir.resolve("s3-src");
    Files.createDirectories(src.resolve("app"));
    String content = "2026-01-02 10:00:00 app started\n".repeat(100);
    Files.writeString(src.resolve("app/02.log"), content);
    Files.writeString(src.resolve("index.html"), "<h1>hello</h1>\n");
    try (S3Server server = S3Server.start()) {
      org.apache.hadoop.conf.Configuration settings = server.configuration();
      String secret = settings.get("fs.s3a.secret.key");
      settings.unset("fs.s3a.secret.key"); // given with -D below
      String site = SiteFiles.write(settings, dir.resolve("s3-site.xml")).toString();
      String archive = server.bucketRoot() + "x.hpf";
      String[] common = {"--conf", site, "-D", "fs.s3a.secret.key=" + secret};

      Run create = run(hpf("create", common, src.toString(), archive));
      assertEquals(0, create.code(), create::toString);
      assertTrue(create.out().startsWith("created " + archive + "\n"), create::toString);
      // Progress lines at most: no line of a library's log.
      assertTrue(create.err().lines().allMatch(line -> line.startsWith("progress: ")),
          create::toString);
      Run cat = run(hpf("cat", common, archive, "app/02.log"));
      assertEquals(content, cat.out(), cat::toString);
      assertEquals("", cat.err(), cat::toString);

      Run missing = run(hpf("ls", common, "s3a://no-such-bucket/x.hpf"));
      assertEquals(ExitCodes.NOT_FOUND, missing.code(), missing::toString);
      assertTrue(missing.err().startsWith("hpf: bucket no-such-bucket does not exist "),
          missing::toString);
      assertEquals(1, missing.err().lines().count(), missing::toString);
    }
  }

  /** bin/hpf's command line: the command, the common options, then the arguments. */
  private static String[] hpf(String command, String[] common, String... args) {
    List<String> line = new ArrayList<>(List.of("bin/hpf", command));
    line.addAll(List.of(common));
    line.addAll(List.of(args));
    return line.toArray(new String[0]);
  }

  /**
   * Hadoop's FsShell, run as HPF-FILESYSTEM.md says (a configuration directory, then the
   * command's libraries, on the class path), writes exactly a member's bytes for {@code -cat}:
   * no library logs into standard output.
   */
  @Test
  void fsShellCatsAMemberExactly() throws Exception {
    Path src = dir.resolve("src");
    Files.createDirectories(src.resolve("app"));
    String content = "2026-01-01 10:00:00 app started\n".repeat(50) + "ümlaut\n";
    Files.writeString(src.resolve("app/01.log"), content);
    Path archive = dir.resolve("logs.hpf");
    Run create = run("bin/hpf", "create", "-q", src.toString(), archive.toString());
    assertEquals(0, create.code(), create::toString);
    Path conf = Files.createDirectories(dir.resolve("conf"));
    Files.writeString(conf.resolve("core-site.xml"), "<configuration><property><name>"
        + "fs.defaultFS</name><value>file:///</value></property></configuration>\n");

    String documented = documentedFsShell();
    String command = documented.replace("/etc/hadoop/conf", conf.toString())
        .replace("hpf://hdfs-nn1:8020/data/logs.hpf/app/01.log",
            "hpf://file-" + archive + "/app/01.log");
    assertFalse(command.equals(documented), documented);
    Run cat = run("bash", "-c", command);
    assertEquals(0, cat.code(), cat::toString);
    assertEquals(content, cat.out(), cat::toString);
  }

  /** The FsShell command line that HPF-FILESYSTEM.md gives for a build's libraries. */
  private static String documentedFsShell() throws IOException {
    return Files.readAllLines(root.resolve("docs/HPF-FILESYSTEM.md")).stream()
        .filter(line -> line.startsWith("java -cp \"/etc/hadoop/conf:hpf-cli/target/lib/*\" "
            + "org.apache.hadoop.fs.FsShell -cat "))
        .findFirst().orElseThrow(() -> new AssertionError("no FsShell command in the docs"));
  }

  private static void assertNoEscapes(Run r) {
    assertFalse((r.out() + r.err()).contains("\u001b"), r::toString);
    assertFalse((r.out() + r.err()).contains("\r"), r::toString);
  }
}
