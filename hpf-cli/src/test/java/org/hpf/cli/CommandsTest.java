package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The subcommands on the local file system, through {@link HpfCommand#execute}. */
class CommandsTest {
  @TempDir
  Path dir;

  private Path src;
  /** Member name to content, sorted as the archive lists names (all ASCII here). */
  private final TreeMap<String, byte[]> files = new TreeMap<>();

  @BeforeEach
  void makeSources() throws IOException {
    src = dir.resolve("src");
    Random random = new Random(7);
    for (int i = 0; i < 40; i++) {
      byte[] bytes;
      if (i % 3 == 0) {
        bytes = ("line " + i + "\n").repeat(1 + random.nextInt(500)).getBytes(
            StandardCharsets.UTF_8);
      } else {
        bytes = new byte[random.nextInt(5000)];
        random.nextBytes(bytes);
      }
      files.put("d" + (i % 4) + "/sub" + (i % 3) + "/f" + i + ".bin", bytes);
    }
    files.put("empty", new byte[0]);
    files.put("top.txt", "top\n".getBytes(StandardCharsets.UTF_8));
    for (var e : files.entrySet()) {
      Path file = src.resolve(e.getKey());
      Files.createDirectories(file.getParent());
      Files.write(file, e.getValue());
    }
  }

  private String create() {
    String archive = dir.resolve("a.hpf").toString();
    Cli.Result r = Cli.run("create", "--threads", "2", "--part-size", "64k", src.toString(),
        archive);
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    return archive;
  }

  /**
   * The summary itemizes the create's wall time: a line per phase, each phase once and in
   * order, whose shares add up to the whole (to the rounding of each share to 0.1%).
   */
  @Test
  void createSummaryItemizesEveryPhase() {
    Cli.Result created = Cli.run("create", src.toString(), dir.resolve("p.hpf").toString());
    assertEquals(ExitCodes.OK, created.code(), created::toString);
    List<String> lines = created.out().lines().toList();
    int time = lines.indexOf(lines.stream().filter(l -> l.startsWith("  time  "))
        .findFirst().orElseThrow(() -> new AssertionError("no time line in " + lines)));
    assertTrue(lines.get(time).endsWith(", by phase:"), lines.get(time));
    double shares = 0;
    org.hpf.internal.write.Phase[] phases = org.hpf.internal.write.Phase.values();
    for (int i = 0; i < phases.length; i++) {
      String line = lines.get(time + 1 + i);
      java.util.regex.Matcher m = java.util.regex.Pattern.compile(
          "    (.+?) +\\d+(\\.\\d+)? m?s \\((\\d+\\.\\d)%\\)").matcher(line);
      assertTrue(m.matches(), line);
      assertEquals(phases[i].label(), m.group(1), line);
      shares += Double.parseDouble(m.group(3));
    }
    assertTrue(shares <= 100 + 0.05 * phases.length, "shares add up to " + shares);
    assertTrue(lines.get(time + 1 + phases.length).startsWith("  throughput"),
        () -> String.join("\n", lines));
  }

  @Test
  void createGetLsRoundTrip() throws IOException {
    String archive = dir.resolve("a.hpf").toString();
    Cli.Result created = Cli.run("create", "--threads", "2", "--part-size", "64k",
        "--compress", "auto", "--bucket-capacity", "16", src.toString(), archive);
    assertEquals(ExitCodes.OK, created.code(), created::toString);
    String summary = created.out();
    for (String field : List.of("files          " + files.size(), "original", "stored", "parts",
        "buckets", "bytes per file", "bits per key", "time", "throughput")) {
      assertTrue(summary.contains(field), () -> field + " missing from\n" + summary);
    }

    Cli.Result ls = Cli.run("ls", archive);
    assertEquals(ExitCodes.OK, ls.code(), ls::toString);
    assertEquals(new ArrayList<>(files.keySet()), ls.out().lines().toList());

    Cli.Result longLs = Cli.run("ls", "-l", archive);
    assertEquals(ExitCodes.OK, longLs.code(), longLs::toString);
    List<String> lines = longLs.out().lines().toList();
    assertEquals(files.size(), lines.size());
    for (String line : lines) {
      String[] f = line.trim().split("\\s+");
      assertEquals(8, f.length, line);
      PosixFileAttributes source = Files.readAttributes(src.resolve(f[7]),
          PosixFileAttributes.class);
      assertEquals("-" + PosixFilePermissions.toString(source.permissions()), f[0], line);
      assertEquals(source.owner().getName(), f[1], line);
      assertEquals(source.group().getName(), f[2], line);
      assertEquals(files.get(f[7]).length, Long.parseLong(f[3]), line);
      assertTrue(f[5].matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), line);
      assertTrue(f[6].equals("raw") || f[6].equals("lz4"), line);
    }
    assertTrue(longLs.out().contains(" lz4 "), "the repetitive text files are compressed");

    for (var e : files.entrySet()) {
      Cli.Result get = Cli.run("get", archive, e.getKey());
      assertEquals(ExitCodes.OK, get.code(), get::toString);
      assertArrayEquals(e.getValue(), get.stdout(), e.getKey());
    }
    Path out = dir.resolve("out.bin");
    String name = files.lastKey();
    Cli.Result toFile = Cli.run("get", archive, name, "-o", out.toString());
    assertEquals(ExitCodes.OK, toFile.code(), toFile::toString);
    assertArrayEquals(files.get(name), Files.readAllBytes(out));
    Cli.Result dash = Cli.run("get", archive, name, "-o", "-");
    assertArrayEquals(files.get(name), dash.stdout());
  }

  @Test
  void writersTakeTheConfigurationKeysAndOptionsWinOverThem() throws IOException {
    String keyed = dir.resolve("keyed.hpf").toString();
    Cli.Result created = Cli.run("create", "-D", "hpf.write.compression=none",
        "-D", "hpf.archive.part.size=32k", "-D", "hpf.archive.bucket.capacity=8",
        src.toString(), keyed);
    assertEquals(ExitCodes.OK, created.code(), created::toString);
    assertFalse(Cli.run("ls", "-l", keyed).out().contains(" lz4 "), "compression=none");
    try (org.hpf.internal.read.HpfReader reader = org.hpf.internal.read.HpfReader.open(
        new org.apache.hadoop.conf.Configuration(), new org.apache.hadoop.fs.Path(keyed))) {
      assertEquals(32 << 10, reader.manifest().partSize());
      assertEquals(8, reader.manifest().bucketCapacity());
    }
    String optioned = dir.resolve("optioned.hpf").toString();
    Cli.Result overridden = Cli.run("create", "-D", "hpf.write.compression=none",
        "--compress", "lz4", src.toString(), optioned);
    assertEquals(ExitCodes.OK, overridden.code(), overridden::toString);
    assertTrue(Cli.run("ls", "-l", optioned).out().contains(" lz4 "), "--compress wins");

    Cli.Result bad = Cli.run("create", "-D", "hpf.write.compression=zip", src.toString(),
        dir.resolve("bad.hpf").toString());
    assertEquals(ExitCodes.USAGE, bad.code(), bad::toString);
    assertTrue(bad.stderr().contains("ZIP"), bad::toString);
    assertFalse(Files.exists(dir.resolve("bad.hpf")), "nothing written");
  }

  @Test
  void plainPathsAreLocalAndFsOptionsApply() throws IOException {
    // Files as sources: members named by their file names.
    Cli.Result r = Cli.run("create", "-q", "-D", "io.file.buffer.size=8192", "-fs", "file:///",
        src.resolve("top.txt").toString(), src.resolve("d1/sub1/f1.bin").toString(),
        dir.resolve("two.hpf").toUri().toString());
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    assertEquals("", r.out(), "--quiet prints no summary");
    assertEquals("", r.stderr(), "--quiet prints no progress");
    Cli.Result ls = Cli.run("ls", "-fs", "local", dir.resolve("two.hpf").toString());
    assertEquals(List.of("f1.bin", "top.txt"), ls.out().lines().toList(), ls::toString);
  }

  @Test
  void missingArchiveIsNotFound() {
    for (String cmd : List.of("ls", "get")) {
      List<String> args = new ArrayList<>(List.of(cmd, dir.resolve("nope.hpf").toString()));
      if (cmd.equals("get")) {
        args.add("x");
      }
      Cli.Result r = Cli.run(args.toArray(new String[0]));
      assertEquals(ExitCodes.NOT_FOUND, r.code(), r::toString);
      assertOneErrorLine(r, "archive does not exist");
    }
  }

  @Test
  void directoryWithoutArchiveIsNotFound() {
    Cli.Result r = Cli.run("ls", src.toString());
    assertEquals(ExitCodes.NOT_FOUND, r.code(), r::toString);
    assertOneErrorLine(r, "is not an hpf archive: no _manifests directory");
  }

  @Test
  void missingMemberIsNotFound() {
    String archive = create();
    Cli.Result r = Cli.run("get", archive, "no/such/file");
    assertEquals(ExitCodes.NOT_FOUND, r.code(), r::toString);
    assertOneErrorLine(r, "'no/such/file' is not in archive");
    assertEquals(0, r.stdout().length);
  }

  @Test
  void missingSourceIsNotFound() {
    Cli.Result r = Cli.run("create", dir.resolve("missing").toString(),
        dir.resolve("b.hpf").toString());
    assertEquals(ExitCodes.NOT_FOUND, r.code(), r::toString);
    assertOneErrorLine(r, "source does not exist");
    assertFalse(Files.exists(dir.resolve("b.hpf")));
  }

  @Test
  void createRefusesAnExistingArchive() {
    String archive = create();
    Cli.Result r = Cli.run("create", src.toString(), archive);
    assertEquals(ExitCodes.EXISTS, r.code(), r::toString);
    assertOneErrorLine(r, "already exists");
    assertEquals(ExitCodes.OK, Cli.run("ls", archive).code(), "the archive is untouched");
  }

  @Test
  void badUsage() {
    String archive = dir.resolve("c.hpf").toString();
    List<String[]> cases = List.of(
        new String[] {},
        new String[] {"frobnicate"},
        new String[] {"create", src.toString()},
        new String[] {"create", "--part-size", "12q", src.toString(), archive},
        new String[] {"create", "--block-size", "1000", src.toString(), archive},
        new String[] {"create", "--compress", "zip", src.toString(), archive},
        new String[] {"create", "--threads", "0", src.toString(), archive},
        new String[] {"create", "--conf", dir.resolve("no-site.xml").toString(), src.toString(),
            archive},
        new String[] {"get", archive},
        new String[] {"ls", "--bogus", archive},
        new String[] {"demo", "--files", "0"});
    for (String[] args : cases) {
      Cli.Result r = Cli.run(args);
      assertEquals(ExitCodes.USAGE, r.code(), () -> Arrays.toString(args) + "\n" + r);
      assertTrue(r.stderr().startsWith("hpf: "), () -> Arrays.toString(args) + "\n" + r);
      assertFalse(r.stderr().contains("\tat "), "no stack trace without --verbose");
    }
    assertFalse(Files.exists(dir.resolve("c.hpf")));
  }

  @Test
  void getRefusesToOverwriteWithoutForce() throws IOException {
    String archive = create();
    Path out = dir.resolve("existing.txt");
    Files.writeString(out, "keep me");
    Cli.Result r = Cli.run("get", archive, "top.txt", "-o", out.toString());
    assertEquals(ExitCodes.EXISTS, r.code(), r::toString);
    assertOneErrorLine(r, "--force");
    assertEquals("keep me", Files.readString(out));

    Cli.Result forced = Cli.run("get", archive, "top.txt", "-o", out.toString(), "--force");
    assertEquals(ExitCodes.OK, forced.code(), forced::toString);
    assertEquals("top\n", Files.readString(out));
    assertFalse(Files.exists(dir.resolve(".existing.txt.crc")), "no checksum side file");
  }

  @Test
  void corruptArchive() throws IOException {
    String archive = create();
    Path manifest;
    try (Stream<Path> s = Files.list(Path.of(archive, "_manifests"))) {
      manifest = s.filter(p -> p.getFileName().toString().startsWith("manifest-")).findFirst()
          .orElseThrow();
    }
    try (RandomAccessFile f = new RandomAccessFile(manifest.toFile(), "rw")) {
      f.seek(0);
      int b = f.read();
      f.seek(0);
      f.write(b ^ 0xff);
    }
    Cli.Result r = Cli.run("ls", archive);
    assertEquals(ExitCodes.CORRUPT, r.code(), r::toString);
    assertOneErrorLine(r, "not an hpf file");
  }

  @Test
  void verboseShowsTheStackTrace() {
    String archive = create();
    Cli.Result r = Cli.run("get", "--verbose", archive, "nope");
    assertEquals(ExitCodes.NOT_FOUND, r.code(), r::toString);
    assertTrue(r.stderr().startsWith("hpf: "), r::toString);
    assertTrue(r.stderr().contains("FileNotInArchiveException"), r::toString);
    assertTrue(r.stderr().contains("\tat org.hpf."), r::toString);
  }

  @Test
  void swappedArgumentsSuggestTheRightOrder() {
    String archive = create();
    Cli.Result append = Cli.run("append", src.toString(), archive);
    assertEquals(ExitCodes.USAGE, append.code(), append::toString);
    assertTrue(append.stderr().startsWith("hpf: '" + archive + "' is an archive, and append"
        + " takes it first: did you mean 'hpf append " + archive + " " + src + "'?"),
        append::toString);
    Cli.Result create = Cli.run("create", archive, src.toString());
    assertEquals(ExitCodes.USAGE, create.code(), create::toString);
    assertTrue(create.stderr().startsWith("hpf: '" + archive + "' is an archive, and create"
        + " takes it last: did you mean 'hpf append " + archive + " " + src + "'?"),
        create::toString);
  }

  @Test
  void aReplaceThatReplacedNothingWarns() throws IOException {
    String archive = create();
    Path more = dir.resolve("more");
    Files.createDirectories(more.resolve("d0/sub0"));
    Path file = Files.writeString(more.resolve("d0/sub0/f0.bin"), "new");
    // A file source is named by its file name: f0.bin, a new name at the root.
    // No progress lines, however slow the machine: stderr must hold the warning alone.
    Cli.Result misnamed = Cli.run("append", "--progress-interval", Cli.NO_PROGRESS, "--replace",
        archive, file.toString());
    assertEquals(ExitCodes.OK, misnamed.code(), misnamed::toString);
    assertTrue(misnamed.stderr().startsWith("hpf: warning: --replace replaced nothing: all 1"
        + " name(s) were new."), misnamed::toString);
    Cli.Result replaced = Cli.run("append", "--progress-interval", Cli.NO_PROGRESS, "--replace",
        archive, more.toString());
    assertEquals(ExitCodes.OK, replaced.code(), replaced::toString);
    assertTrue(replaced.out().contains("0 added, 1 replaced"), replaced::toString);
    assertEquals("", replaced.stderr(), replaced::toString);
  }

  @Test
  void commonOptionsGoBeforeTheCommandToo() {
    String archive = create();
    Cli.Result verbose = Cli.run("--verbose", "get", archive, "nope");
    assertEquals(ExitCodes.NOT_FOUND, verbose.code(), verbose::toString);
    assertTrue(verbose.stderr().contains("\tat org.hpf."), verbose::toString);
    Cli.Result ls = Cli.run("-fs", "local", "-Dfs.permissions.umask-mode=022", "-q", "ls",
        archive);
    assertEquals(ExitCodes.OK, ls.code(), ls::toString);
    assertEquals(new ArrayList<>(files.keySet()), ls.out().lines().toList());
  }

  @Test
  void helpAndVersion() {
    Cli.Result help = Cli.run("--help");
    assertEquals(ExitCodes.OK, help.code());
    assertTrue(help.out().contains("Exit codes:"), help::toString);
    for (String cmd : List.of("create", "get", "ls", "demo")) {
      Cli.Result sub = Cli.run(cmd, "--help");
      assertEquals(ExitCodes.OK, sub.code(), sub::toString);
      assertTrue(sub.out().contains("Common options:"), sub::toString);
      assertTrue(sub.out().contains("Exit codes:"), sub::toString);
    }
    assertTrue(Cli.run("create", "--help").out().contains("A plain"),
        "create --help documents plain paths");
    Cli.Result version = Cli.run("--version");
    assertEquals(ExitCodes.OK, version.code());
    assertTrue(version.out().startsWith("hpf "), version::toString);
    assertFalse(version.out().contains("unknown"), version::toString);
  }

  private static void assertOneErrorLine(Cli.Result r, String expected) {
    List<String> lines = r.stderr().lines().collect(Collectors.toList());
    assertEquals(1, lines.size(), r::toString);
    assertTrue(lines.get(0).startsWith("hpf: "), r::toString);
    assertTrue(lines.get(0).contains(expected), r::toString);
  }
}
