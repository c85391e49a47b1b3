package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.hpf.ArchiveWriter;
import org.hpf.HpfArchive;
import org.hpf.MemberAccess;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hpf create} then {@code hpf extract} of a real tree gives the same bytes, modes, times
 * and owners, as the system's own {@code diff} and {@code stat} see them.
 */
class ExtractedAttributesTest {
  /** Each file's mode; the times differ per file, a second apart. */
  private static final Map<String, Integer> MODES = new TreeMap<>(Map.of(
      "bin/run.sh", 0755,
      "private/key.pem", 0600,
      "shared/notes.txt", 0664,
      "sbin/group-tool", 02755,
      "sbin/user-tool", 04750,
      "empty/nothing", 0644,
      "read-only.txt", 0444,
      "deep/a/b/c/leaf.txt", 0640,
      "deep/a/sticky", 01644));
  /** Owner and group of some files (the rest: the test's user). */
  private static final Map<String, String> OWNERS = Map.of(
      "shared/notes.txt", "daemon:users",
      "sbin/group-tool", "bin:daemon");

  private static final String USER = System.getProperty("user.name");
  /** Whether the test runs as root, who may give files to other owners. */
  private static final boolean ROOT = USER.equals("root");

  @TempDir
  static Path shared;
  private static Path src;
  private static String archive;

  @TempDir
  Path dir;

  @BeforeAll
  static void createArchive() throws Exception {
    src = shared.resolve("src");
    long time = TestTrees.MTIME;
    for (var e : MODES.entrySet()) {
      Path file = src.resolve(e.getKey());
      Files.createDirectories(file.getParent());
      String content = e.getKey().startsWith("empty/") ? "" : "content of " + e.getKey() + "\n";
      Files.writeString(file, content, StandardCharsets.UTF_8);
      run(src, "chmod", Integer.toOctalString(e.getValue()), e.getKey());
      if (ROOT && OWNERS.containsKey(e.getKey())) {
        run(src, "chown", OWNERS.get(e.getKey()), e.getKey());
        run(src, "chmod", Integer.toOctalString(e.getValue()), e.getKey()); // chown clears s
      }
      Files.setLastModifiedTime(file, FileTime.fromMillis(time));
      time += 1000;
    }
    assertEquals("2755", stat(src, "%a", List.of("sbin/group-tool")).trim(), "setgid set");
    archive = TestTrees.create(src, shared.resolve("tree.hpf"));
  }

  @Test
  void theSuperuserGetsEveryModeTimeAndOwnerBack() throws Exception {
    // Only root may give files to other owners (and only root extracts with --same-owner by
    // default); the tests below check modes and times as any user.
    assumeTrue(ROOT, "the defaults of root, who may give files to other owners");
    Path out = dir.resolve("out");
    Cli.Result r = Cli.run("extract", "-q", archive, out.toString());
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    assertEquals("", r.stderr());
    assertEquals("", run(dir, "diff", "-r", src.toString(), out.toString()));
    String format = "%n %a %Y %U %G";
    assertEquals(stat(src, format, names(src)), stat(out, format, names(out)));
  }

  @Test
  void withoutPreservingTheUmaskAppliesAndNoBitsAreSpecial() throws Exception {
    Path out = dir.resolve("out");
    Cli.Result r = Cli.run("extract", "--no-preserve-permissions", "--no-same-owner", archive,
        out.toString());
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    int umask = Integer.parseInt(run(dir, "sh", "-c", "umask").trim(), 8);
    StringBuilder expected = new StringBuilder();
    for (var e : MODES.entrySet()) {
      expected.append(e.getKey()).append(' ')
          .append(Integer.toOctalString(e.getValue() & 0777 & ~umask)).append(' ').append(USER)
          .append('\n');
    }
    assertEquals(expected.toString(), stat(out, "%n %a %U", new ArrayList<>(MODES.keySet())));
    assertEquals(stat(src, "%n %Y", names(src)), stat(out, "%n %Y", names(out)));
  }

  @Test
  void preservedModesWithoutTheOwnersLoseSetuidAndSetgid() throws Exception {
    Path out = dir.resolve("out");
    Cli.Result r = Cli.run("extract", "-p", "--no-same-owner", archive, out.toString());
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    assertEquals(String.format("sbin/group-tool 755 %1$s%nsbin/user-tool 750 %1$s%n"
            + "deep/a/sticky 1644 %1$s%nshared/notes.txt 664 %1$s%n", USER),
        stat(out, "%n %a %U", List.of("sbin/group-tool", "sbin/user-tool", "deep/a/sticky",
            "shared/notes.txt")));
  }

  /** A file in the way is replaced, as tar does: a new file with the member's mode. */
  @Test
  void forceReplacesFilesWithTheirMembersModes() throws Exception {
    Path out = dir.resolve("out");
    assertEquals(ExitCodes.OK, Cli.run("extract", "-p", archive, out.toString()).code());
    run(out, "chmod", "600", "read-only.txt");
    Files.writeString(out.resolve("read-only.txt"), "changed");
    run(out, "chmod", "000", "bin/run.sh");
    Cli.Result again = Cli.run("extract", "-p", "--force", archive, out.toString());
    assertEquals(ExitCodes.OK, again.code(), again::toString);
    assertEquals("", run(dir, "diff", "-r", src.toString(), out.toString()));
    assertEquals("read-only.txt 444\nbin/run.sh 755\n",
        stat(out, "%n %a", List.of("read-only.txt", "bin/run.sh")));
  }

  @Test
  void ownersThatCannotBeRestoredAreOneWarning() throws Exception {
    Path strangers = dir.resolve("strangers.hpf");
    byte[] bytes = "x\n".getBytes(StandardCharsets.UTF_8);
    try (ArchiveWriter writer = HpfArchive.create(
        new org.apache.hadoop.fs.Path(strangers.toUri()), new Configuration())) {
      for (String name : List.of("a-setuid-tool", "b-file")) {
        writer.add(name, new ByteArrayInputStream(bytes), bytes.length, TestTrees.MTIME,
            new MemberAccess("no-such-user-" + name, "no-such-group", 04755));
      }
      writer.commit();
    }
    Path out = dir.resolve("out");
    Cli.Result r = Cli.run("extract", "-q", "-p", "--same-owner", strangers.toString(),
        out.toString());
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    assertTrue(r.stderr().startsWith("hpf: warning: could not restore the recorded owner or"
        + " group of 2 file(s), which belong to the user who extracted them (first: file:"),
        r::toString);
    String member = "([ab]-[a-z-]+)";
    assertTrue(r.stderr().matches("(?s).*/" + member + " \\(no-such-user-\\1:no-such-group\\):"
        + " no user no-such-user-\\1 here\\)\n"), r::toString);
    assertEquals(1, r.stderr().lines().count(), r::toString);
    assertEquals(String.format("a-setuid-tool 755 %1$s%nb-file 755 %1$s%n", USER),
        stat(out, "%n %a %U", List.of("a-setuid-tool", "b-file")), "setuid needs the owner");
  }

  /**
   * An archive written before owners and modes were recorded lists what the library reports
   * (the directory's owner and group, 0444), but extracting makes nothing up: its files are
   * created as any new file is, without a warning about owners.
   */
  @Test
  void membersOfOlderArchivesGetNoMadeUpOwnersOrModes() throws Exception {
    Path old = TestTrees.copy(Path.of("..", "hpf-core", "src", "test", "resources", "golden",
        "v3", "archive.hpf"), dir.resolve("v3.hpf"));
    if (ROOT) {
      run(dir, "chown", "-R", "daemon:bin", old.toString()); // not the extracting user's
    }
    PosixFileAttributes directory = Files.readAttributes(old, PosixFileAttributes.class);
    String listed = String.format("-r--r--r-- %-8s %-8s ", directory.owner().getName(),
        directory.group().getName());
    Cli.Result ls = Cli.run("ls", "-l", old.toString());
    assertEquals(ExitCodes.OK, ls.code(), ls::toString);
    assertTrue(ls.out().lines().allMatch(l -> l.startsWith(listed)), ls::toString);

    Path out = dir.resolve("out");
    Cli.Result r = Cli.run("extract", "-q", "-p", "--same-owner", old.toString(),
        out.toString());
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    assertEquals("", r.stderr());
    int umask = Integer.parseInt(run(dir, "sh", "-c", "umask").trim(), 8);
    String expected = Integer.toOctalString(0666 & ~umask) + " " + USER;
    List<String> names = names(out);
    assertEquals(ls.out().lines().count(), names.size());
    String modes = stat(out, "%a %U", names);
    assertTrue(modes.lines().allMatch(expected::equals), () -> expected + " expected:\n" + modes);
  }

  @Test
  void helpNamesTheOptionsAndTheirNegations() {
    Cli.Result help = Cli.run("extract", "--help");
    assertTrue(help.out().contains("-p, --[no-]preserve-permissions"), help::toString);
    assertTrue(help.out().contains("--[no-]same-owner"), help::toString);
  }

  /** The regular files below {@code root}, relative, in name order. */
  private static List<String> names(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).map(p -> root.relativize(p).toString()).sorted()
          .collect(Collectors.toList());
    }
  }

  /** The system's {@code stat -c format} of these files, run in {@code root}. */
  private static String stat(Path root, String format, List<String> files) throws Exception {
    List<String> command = new ArrayList<>(List.of("stat", "-c", format));
    command.addAll(files);
    return run(root, command.toArray(new String[0]));
  }

  /** Runs a command in {@code dir}; its output, or a failed test if it exits non-zero. */
  private static String run(Path dir, String... command) throws Exception {
    Process process = new ProcessBuilder(command).directory(dir.toFile())
        .redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int code = process.waitFor();
    assertTrue(code == 0, () -> String.join(" ", command) + ": exit " + code + "\n" + output);
    return output;
  }
}
