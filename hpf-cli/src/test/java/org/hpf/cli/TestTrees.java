package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Source trees for the command tests, and assertions shared by them. */
final class TestTrees {
  /** Modification time of every generated file. */
  static final long MTIME = 1_767_441_600_000L; // 2026-01-03T12:00:00Z

  private TestTrees() {}

  /**
   * Writes {@code count} files under {@code root} (names {@code d<i%4>/f<i>.bin}, some
   * compressible, one empty) and returns name to content, sorted as the archive lists names.
   */
  static TreeMap<String, byte[]> write(Path root, int count, long seed) throws IOException {
    TreeMap<String, byte[]> files = new TreeMap<>();
    Random random = new Random(seed);
    for (int i = 0; i < count; i++) {
      byte[] bytes;
      if (i == 0) {
        bytes = new byte[0];
      } else if (i % 3 == 0) {
        bytes = ("line " + i + "\n").repeat(1 + random.nextInt(300))
            .getBytes(StandardCharsets.UTF_8);
      } else {
        bytes = new byte[random.nextInt(4000)];
        random.nextBytes(bytes);
      }
      files.put("d" + (i % 4) + "/f" + i + ".bin", bytes);
    }
    write(root, files);
    return files;
  }

  static void write(Path root, Map<String, byte[]> files) throws IOException {
    for (var e : files.entrySet()) {
      Path file = root.resolve(e.getKey());
      Files.createDirectories(file.getParent());
      Files.write(file, e.getValue());
      Files.setLastModifiedTime(file, FileTime.fromMillis(MTIME));
    }
  }

  /** Creates an archive of {@code src} quietly; fails the test if that fails. */
  static String create(Path src, Path archive, String... options) {
    List<String> args = new java.util.ArrayList<>(List.of("create", "-q", "--threads", "2"));
    args.addAll(List.of(options));
    args.add(src.toString());
    args.add(archive.toString());
    Cli.Result r = Cli.run(args.toArray(new String[0]));
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    return archive.toString();
  }

  /** Copies a directory tree (an archive: its files name no absolute path). */
  static Path copy(Path from, Path to) throws IOException {
    try (java.util.stream.Stream<Path> paths = Files.walk(from)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        Path target = to.resolve(from.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
          // as `cp -p`: who may read an archive is its directory's mode
          Files.setPosixFilePermissions(target, Files.getPosixFilePermissions(path));
        } else {
          Files.copy(path, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
    return to;
  }

  /** Relative path to length of every file below {@code root} (none if it does not exist). */
  static Map<String, Long> files(Path root) throws IOException {
    if (!Files.exists(root)) {
      return Map.of();
    }
    try (java.util.stream.Stream<Path> paths = Files.walk(root)) {
      return paths.filter(Files::isRegularFile).collect(Collectors.toMap(
          p -> root.relativize(p).toString(), p -> p.toFile().length(), (a, b) -> a,
          TreeMap::new));
    }
  }

  static List<String> ls(String archive) {
    Cli.Result r = Cli.run("ls", archive);
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    return r.out().lines().collect(Collectors.toList());
  }

  /** {@code hpf info --json}, parsed. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> info(String archive) throws IOException {
    return info(new String[] {"info", "--json", archive});
  }

  /** {@code hpf} with these arguments (an info --json), its output parsed. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> info(String[] args) throws IOException {
    Cli.Result r = Cli.run(args);
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    return new com.fasterxml.jackson.databind.ObjectMapper().readValue(r.out(), Map.class);
  }

  /** stderr is exactly one line, {@code hpf: ...}, containing {@code expected} (and progress). */
  static void assertOneErrorLine(Cli.Result r, String expected) {
    List<String> lines = errorLines(r);
    assertEquals(1, lines.size(), r::toString);
    assertTrue(lines.get(0).startsWith("hpf: "), r::toString);
    assertTrue(lines.get(0).contains(expected), () -> "expected '" + expected + "' in\n" + r);
  }

  /**
   * The run's stderr without its progress lines, which a command that runs for longer than the
   * progress interval prints (on a loaded machine, any command may).
   */
  private static List<String> errorLines(Cli.Result r) {
    return r.stderr().lines().filter(line -> !line.startsWith("progress: "))
        .collect(Collectors.toList());
  }

  /**
   * The run failed with this exit code and one error line containing {@code expected}; bad
   * usage (exit code 2) adds a second line pointing at the command's help.
   */
  static void assertFails(Cli.Result r, int code, String expected) {
    assertEquals(code, r.code(), r::toString);
    if (code != ExitCodes.USAGE) {
      assertOneErrorLine(r, expected);
      return;
    }
    List<String> lines = errorLines(r);
    assertEquals(2, lines.size(), r::toString);
    assertTrue(lines.get(0).startsWith("hpf: ") && lines.get(0).contains(expected),
        () -> "expected '" + expected + "' in\n" + r);
    assertTrue(lines.get(1).startsWith("Try 'hpf ") && lines.get(1).endsWith(
        " --help' for more information."), r::toString);
    assertEquals(0, r.stdout().length, r::toString);
  }
}
