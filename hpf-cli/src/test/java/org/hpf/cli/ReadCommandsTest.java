package org.hpf.cli;

import static org.hpf.cli.TestTrees.assertFails;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** cat, ls --prefix, info and verify on the local file system. */
class ReadCommandsTest {
  /** One archive for the tests that only read it; those that damage it copy it first. */
  @TempDir
  static Path shared;

  private static TreeMap<String, byte[]> files;
  private static String archive;

  @TempDir
  Path dir;

  @BeforeAll
  static void createArchive() throws IOException {
    files = TestTrees.write(shared.resolve("src"), 40, 3);
    archive = TestTrees.create(shared.resolve("src"), shared.resolve("a.hpf"),
        "--bucket-capacity", "8");
  }

  /** A copy of the archive this test may damage. */
  private String copy() throws IOException {
    return TestTrees.copy(Path.of(archive), dir.resolve("copy.hpf")).toString();
  }

  @Test
  void catConcatenatesInTheOrderGiven() throws IOException {
    List<String> names = new ArrayList<>(files.keySet());
    Cli.Result r = Cli.run("cat", archive, names.get(5), names.get(2), names.get(5));
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    expected.write(files.get(names.get(5)));
    expected.write(files.get(names.get(2)));
    expected.write(files.get(names.get(5)));
    assertArrayEquals(expected.toByteArray(), r.stdout());
    assertEquals("", r.stderr());
  }

  /**
   * Several names to get are read as one batch and written as cat writes them, members larger
   * than the batch's window (all of them, with a window of one byte) too.
   */
  @Test
  void getWithSeveralNamesWritesThemInTheOrderGiven() throws IOException {
    List<String> names = new ArrayList<>(files.keySet());
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    for (int i : new int[] {7, 1, 30, 1}) {
      expected.write(files.get(names.get(i)));
    }
    for (String window : List.of("64m", "1")) {
      Cli.Result r = Cli.run("-Dhpf.read.batch.window.bytes=" + window, "get", archive,
          names.get(7), names.get(1), names.get(30), names.get(1));
      assertEquals(ExitCodes.OK, r.code(), r::toString);
      assertArrayEquals(expected.toByteArray(), r.stdout(), "window " + window);
      assertEquals("", r.stderr());
    }
    Cli.Result missing = Cli.run("get", archive, names.get(3), "no/such", names.get(4));
    assertFails(missing, ExitCodes.NOT_FOUND, "'no/such' is not in archive");
    assertEquals(0, missing.stdout().length, "nothing written");
    assertFails(Cli.run("get", archive, names.get(3), names.get(4), "-o",
        dir.resolve("out").toString()), ExitCodes.USAGE, "-o <file> takes one name");
    assertFalse(Files.exists(dir.resolve("out")));
  }

  @Test
  void catChecksEveryNameBeforeWritingAByte() {
    Cli.Result r = Cli.run("cat", archive, files.firstKey(), "no/such");
    assertFails(r, ExitCodes.NOT_FOUND, "'no/such' is not in archive");
    assertEquals(0, r.stdout().length, "nothing written");
    assertFails(Cli.run("cat", dir.resolve("nope.hpf").toString(), "x"), ExitCodes.NOT_FOUND,
        "archive does not exist");
    assertFails(Cli.run("cat", archive), ExitCodes.USAGE, "Missing required parameter");
  }

  @Test
  void lsOfADirectoryThatHoldsNoArchiveSaysSo() throws IOException {
    Path empty = Files.createDirectories(dir.resolve("empty.hpf"));
    assertFails(Cli.run("ls", empty.toString()), ExitCodes.NOT_FOUND,
        "is not an hpf archive: no _manifests directory");
    Path junk = Files.createDirectories(dir.resolve("junk.hpf"));
    Files.writeString(junk.resolve("notes.txt"), "not an archive");
    assertFails(Cli.run("ls", junk.toString()), ExitCodes.NOT_FOUND,
        "is not an hpf archive: no _manifests directory");
  }

  @Test
  void lsPrefixStreamsTheMatchingNames() {
    Cli.Result r = Cli.run("ls", "--prefix", "d2/", archive);
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    List<String> expected = files.keySet().stream().filter(n -> n.startsWith("d2/")).toList();
    assertEquals(10, expected.size());
    assertEquals(expected, r.out().lines().toList());

    Cli.Result partial = Cli.run("ls", "-l", "--prefix", "d1/f1", archive);
    List<String> lines = partial.out().lines().toList();
    assertEquals(files.keySet().stream().filter(n -> n.startsWith("d1/f1")).count(),
        lines.size(), partial::toString);
    for (String line : lines) {
      String[] f = line.trim().split("\\s+");
      assertEquals(files.get(f[7]).length, Long.parseLong(f[3]), line);
      assertEquals(Instant.ofEpochMilli(TestTrees.MTIME).truncatedTo(ChronoUnit.SECONDS)
          .toString(), f[5], line);
    }
    Cli.Result none = Cli.run("ls", "--prefix", "zzz", archive);
    assertEquals(ExitCodes.OK, none.code());
    assertEquals("", none.out() + none.stderr());
  }

  @Test
  void infoTextHasEveryField() {
    Cli.Result r = Cli.run("info", archive);
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    for (String label : List.of("format version         6", "generation             1",
        "files                  40",
        "owners and modes       1 distinct owner, group and mode triple(s)", "bytes", "parts",
        "index files", "index bytes per file",
        "buckets", "global depth", "bits per key", "index layers           1", "  layer 0",
        "names segments", "block size", "NameNode", "  this archive", "  as plain files",
        "  saved", "  ratio", "200 bytes per object",
        "cache pinning          skipped: the archive is on file://, not HDFS")) {
      assertTrue(r.out().contains(label), () -> label + " missing from\n" + r.out());
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void infoJsonFigures() throws IOException {
    Map<String, Object> info = TestTrees.info(archive);
    assertEquals(6, info.get("formatVersion"));
    assertEquals(1, info.get("generation"));
    assertEquals(40, info.get("files"));
    assertEquals(1, info.get("accessClasses"), "every file has the same owner, group and mode");
    long original = files.values().stream().mapToLong(b -> b.length).sum();
    assertEquals(original, ((Number) info.get("originalBytes")).longValue());
    int buckets = (Integer) info.get("buckets");
    assertTrue(buckets >= 5, "40 names in buckets of 8: " + buckets);
    assertEquals(buckets, (Integer) info.get("indexFiles"), "no bucket is empty here");
    assertTrue((Integer) info.get("globalDepth") >= 3, info::toString);
    double bitsPerKey = ((Number) info.get("functionBitsPerKey")).doubleValue();
    assertTrue(bitsPerKey > 0, info::toString);
    double perFile = ((Number) info.get("indexBytesPerFile")).doubleValue();
    assertEquals(((Number) info.get("indexBytes")).doubleValue() / 40, perFile, 0.01);

    Map<String, Object> nn = (Map<String, Object>) info.get("nameNode");
    assertEquals(200, nn.get("objectBytes"));
    Map<String, Object> plain = (Map<String, Object>) nn.get("plainFiles");
    // 40 files in 4 directories under a root; 39 non-empty files of one block each.
    assertEquals(45, plain.get("inodes"));
    assertEquals(39, plain.get("blocks"));
    assertEquals(84 * 200, plain.get("memoryBytes"));
    Map<String, Object> archived = (Map<String, Object>) nn.get("archive");
    long archiveFiles = countFiles(Path.of(archive));
    assertEquals((int) archiveFiles + 2, archived.get("inodes"), "files, _manifests and root");
    assertEquals(((Number) plain.get("objects")).longValue()
        - ((Number) archived.get("objects")).longValue(),
        ((Number) nn.get("objectsSaved")).longValue());
    Map<String, Object> cache = (Map<String, Object>) info.get("cache");
    assertEquals(false, cache.get("available"));
  }

  @Test
  void infoErrors() throws IOException {
    assertFails(Cli.run("info", dir.resolve("nope.hpf").toString()), ExitCodes.NOT_FOUND,
        "archive does not exist");
    assertFails(Cli.run("info", shared.resolve("src").toString()), ExitCodes.NOT_FOUND,
        "is not an hpf archive: no _manifests directory");
    String damaged = copy();
    flipByte(manifest(damaged), 40);
    assertFails(Cli.run("info", damaged), ExitCodes.CORRUPT, "manifest");
  }

  @Test
  void verifyPassesOnAGoodArchive() {
    Cli.Result r = Cli.run("verify", archive);
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    assertTrue(r.out().startsWith("verified file:"), r::toString);
    assertTrue(r.out().contains(": 40 files, "), r::toString);
    Cli.Result quiet = Cli.run("verify", "-q", archive);
    assertEquals(ExitCodes.OK, quiet.code());
    assertEquals("", quiet.out() + quiet.stderr());
  }

  @Test
  void verifyPrintsEveryProblemAndFails() throws IOException {
    String archive = copy();
    Path part;
    try (Stream<Path> s = Files.list(Path.of(archive))) {
      part = s.filter(p -> p.getFileName().toString().startsWith("part-")).sorted()
          .findFirst().orElseThrow();
    }
    flipByte(part, 60);
    Cli.Result r = Cli.run("verify", archive);
    assertEquals(ExitCodes.CORRUPT, r.code(), r::toString);
    List<String> problems = r.out().lines().filter(l -> l.startsWith("problem: "))
        .collect(Collectors.toList());
    assertTrue(problems.size() >= 2, "the part's checksum and the member's:\n" + r);
    assertTrue(problems.stream().anyMatch(p -> p.contains(part.getFileName().toString())), r::toString);
    assertTrue(r.out().contains("FAILED file:"), r::toString);
    TestTrees.assertOneErrorLine(r, "failed verification: " + problems.size() + " problem(s)");

    Cli.Result quiet = Cli.run("verify", "-q", archive);
    assertEquals(ExitCodes.CORRUPT, quiet.code());
    assertEquals(problems, quiet.out().lines().toList(), "problems print even with --quiet");
  }

  @Test
  void verifyErrors() throws IOException {
    assertFails(Cli.run("verify", dir.resolve("nope.hpf").toString()), ExitCodes.NOT_FOUND,
        "archive does not exist");
    String damaged = copy();
    flipByte(manifest(damaged), 0);
    assertFails(Cli.run("verify", damaged), ExitCodes.CORRUPT, "not an hpf file");
  }

  private static Path manifest(String archive) throws IOException {
    try (Stream<Path> s = Files.list(Path.of(archive, "_manifests"))) {
      return s.filter(p -> p.getFileName().toString().startsWith("manifest-")).findFirst()
          .orElseThrow();
    }
  }

  static void flipByte(Path file, long offset) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      int b = f.read();
      f.seek(offset);
      f.write(b ^ 0x5a);
    }
  }

  private static long countFiles(Path root) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile).count();
    }
  }
}
