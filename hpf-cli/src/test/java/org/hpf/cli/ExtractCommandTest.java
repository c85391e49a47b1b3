package org.hpf.cli;

import static org.hpf.cli.TestTrees.assertFails;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.hpf.internal.write.ForgedArchive;
import org.hpf.testing.ReadCountingFileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hpf extract}: what it writes, and what it refuses to. */
class ExtractCommandTest {
  /** One archive for all tests: extract only reads it. */
  @TempDir
  static Path shared;

  private static TreeMap<String, byte[]> files;
  private static String archive;

  @TempDir
  Path dir;

  @BeforeAll
  static void createArchive() throws IOException {
    files = TestTrees.write(shared.resolve("src"), 24, 5);
    archive = TestTrees.create(shared.resolve("src"), shared.resolve("a.hpf"));
  }

  @Test
  void extractsEveryMemberWithItsModificationTime() throws IOException {
    Path out = dir.resolve("out");
    Cli.Result r = Cli.run("extract", archive, out.toString());
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    assertTrue(r.out().startsWith("extracted 24 file(s), "), r::toString);
    assertEquals("", r.stderr());
    assertTreeEquals(files, out);
    for (String name : files.keySet()) {
      assertEquals(TestTrees.MTIME, Files.getLastModifiedTime(out.resolve(name)).toMillis(),
          name);
    }
    assertFalse(Files.exists(out.resolve("d0/.f0.bin.crc")), "no checksum side files");
  }

  /** Members close in a part are read together: far fewer reads of the parts than members. */
  @Test
  void readsTheMembersAsABatch() throws IOException {
    Path out = dir.resolve("out");
    ReadCountingFileSystem.reset();
    Cli.Result r = Cli.run("-Dfs.countfs.impl=" + ReadCountingFileSystem.class.getName(),
        "-Dfs.countfs.impl.disable.cache=true", "extract",
        ReadCountingFileSystem.path(Path.of(archive)).toString(), out.toString());
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    assertTreeEquals(files, out);
    long reads = ReadCountingFileSystem.positionedReads();
    assertTrue(reads >= 1 && reads <= files.size() / 4, "reads of the parts: " + reads);
  }

  @Test
  void extractsManyBatchesWithSeveralThreads() throws IOException {
    // More members than one batch: looked up, ordered by part offset and written in parallel.
    TreeMap<String, byte[]> many = TestTrees.write(dir.resolve("src"), 2 * 4096 + 123, 9);
    String big = TestTrees.create(dir.resolve("src"), dir.resolve("big.hpf"), "--part-size",
        "4m");
    Path out = dir.resolve("out");
    Cli.Result r = Cli.run("extract", "--threads", "3", big, out.toString());
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    assertTrue(r.out().startsWith("extracted 8,315 file(s), "), r::toString);
    assertTreeEquals(many, out);
    for (String name : many.keySet()) {
      assertEquals(TestTrees.MTIME, Files.getLastModifiedTime(out.resolve(name)).toMillis(),
          name);
    }
    assertFails(Cli.run("extract", "--threads", "0", big, dir.resolve("o2").toString()),
        ExitCodes.USAGE, "--threads must be at least 1");
  }

  @Test
  void aDamagedMemberStopsTheExtractionAndLeavesNoDamagedFile() throws IOException {
    Path copy = TestTrees.copy(shared.resolve("a.hpf"), dir.resolve("damaged.hpf"));
    String damaged = files.keySet().stream().filter(n -> files.get(n).length > 1000)
        .skip(3).findFirst().orElseThrow();
    org.hpf.internal.format.IndexRecord record;
    try (org.hpf.internal.read.HpfReader reader = org.hpf.internal.read.HpfReader.open(
        new org.apache.hadoop.conf.Configuration(),
        new org.apache.hadoop.fs.Path(copy.toUri()))) {
      record = reader.record(damaged);
    }
    Path part = copy.resolve(String.format("part-%06d", record.part()));
    try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(part.toFile(), "rw")) {
      long at = record.offset() + record.entryLength() - 10;
      file.seek(at);
      int b = file.read();
      file.seek(at);
      file.write(b ^ 0x01);
    }
    Path out = dir.resolve("out");
    Cli.Result r = Cli.run("extract", "--threads", "4", copy.toString(), out.toString());
    assertEquals(ExitCodes.CORRUPT, r.code(), r::toString);
    assertTrue(r.stderr().contains(damaged), r::toString);
    assertFalse(Files.exists(out.resolve(damaged)), "the damaged member's file was removed");
    // Whatever was written before the error is whole.
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      Path file = out.resolve(e.getKey());
      if (Files.exists(file)) {
        assertArrayEquals(e.getValue(), Files.readAllBytes(file), e.getKey());
      }
    }
  }

  @Test
  void extractsNamedMembersOrAPrefix() throws IOException {
    List<String> names = new ArrayList<>(files.keySet());
    Path some = dir.resolve("some");
    Cli.Result r = Cli.run("extract", archive, some.toString(), names.get(3), names.get(1));
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    assertTreeEquals(Map.of(names.get(3), files.get(names.get(3)), names.get(1),
        files.get(names.get(1))), some);

    Path prefixed = dir.resolve("prefixed");
    Cli.Result p = Cli.run("extract", "--prefix", "d3/", archive, prefixed.toString());
    assertEquals(ExitCodes.OK, p.code(), p::toString);
    TreeMap<String, byte[]> d3 = new TreeMap<>(files.subMap("d3/", "d3/\uffff"));
    assertEquals(6, d3.size());
    assertTreeEquals(d3, prefixed);
  }

  @Test
  void neverOverwritesWithoutForce() throws IOException {
    Path out = dir.resolve("out");
    String name = files.lastKey();
    Files.createDirectories(out.resolve(name).getParent());
    Files.writeString(out.resolve(name), "keep me");
    Cli.Result r = Cli.run("extract", archive, out.toString());
    assertFails(r, ExitCodes.EXISTS, "1 file(s) to extract exist already (");
    assertTrue(r.stderr().contains("use --force to overwrite them"), r::toString);
    assertEquals("keep me", Files.readString(out.resolve(name)));
    assertEquals(1, countFiles(out), "nothing was written");

    Cli.Result forced = Cli.run("extract", "--force", archive, out.toString());
    assertEquals(ExitCodes.OK, forced.code(), forced::toString);
    assertTreeEquals(files, out);
  }

  @Test
  void refusesTraversalInNamesGiven() throws IOException {
    Path out = dir.resolve("out");
    for (String name : List.of("../escape", "/etc/passwd", "d0/../../x", "./d0/f4.bin", "")) {
      Cli.Result r = Cli.run("extract", archive, out.toString(), name);
      assertEquals(ExitCodes.USAGE, r.code(), r::toString);
      assertTrue(r.stderr().startsWith("hpf: refusing '" + name + "': member names are"
          + " relative paths"), r::toString);
    }
    assertFalse(Files.exists(out));
  }

  /**
   * An archive written by something other than hpf's writers may hold names that climb out of
   * the destination: extract refuses it before writing anything.
   */
  @Test
  void refusesAnArchiveWhoseNamesEscape() throws IOException {
    Path evil = dir.resolve("evil.hpf");
    Map<String, byte[]> members = new TreeMap<>();
    for (String name : List.of("../../escaped.txt", "a/ok.txt", "b/../../../x.txt")) {
      members.put(name, "owned".getBytes(StandardCharsets.UTF_8));
    }
    ForgedArchive.create(new org.apache.hadoop.fs.Path(evil.toUri()), members, TestTrees.MTIME);
    assertTrue(TestTrees.ls(evil.toString()).contains("../../escaped.txt"), "forged");

    Path out = dir.resolve("x/y/out");
    Cli.Result r = Cli.run("extract", evil.toString(), out.toString());
    assertFails(r, ExitCodes.CORRUPT, "refusing to extract '../../escaped.txt': it would be"
        + " written outside");
    assertTrue(r.stderr().contains("nothing was extracted"), r::toString);
    assertFalse(Files.exists(dir.resolve("x/escaped.txt")));
    assertFalse(Files.exists(out.resolve("a/ok.txt")), "refused before writing anything");

    Cli.Result prefixed = Cli.run("extract", "--prefix", "a/", evil.toString(), out.toString());
    assertEquals(ExitCodes.OK, prefixed.code(), "the safe names can be extracted by prefix");
    assertEquals("owned", Files.readString(out.resolve("a/ok.txt")));
  }

  @Test
  void refusesToWriteThroughASymbolicLink() throws IOException {
    Path out = dir.resolve("out");
    Path outside = dir.resolve("outside");
    Files.createDirectories(out);
    Files.createDirectories(outside);
    Files.createSymbolicLink(out.resolve("d1"), outside);
    Cli.Result r = Cli.run("extract", "--force", archive, out.toString());
    assertFails(r, ExitCodes.CORRUPT, "is a symbolic link");
    assertEquals(0, countFiles(outside), "nothing written through the link");
    assertEquals(0, countFiles(out), "nothing written at all");

    // A symbolic link as the destination itself is the user's choice, and followed.
    Path linkedDest = dir.resolve("linked");
    Files.createSymbolicLink(linkedDest, outside);
    Cli.Result linked = Cli.run("extract", "--prefix", "d2/", archive, linkedDest.toString());
    assertEquals(ExitCodes.OK, linked.code(), linked::toString);
    assertEquals(6, countFiles(outside));
  }

  @Test
  void extractErrors() throws IOException {
    Path out = dir.resolve("out");
    assertFails(Cli.run("extract", dir.resolve("nope.hpf").toString(), out.toString()),
        ExitCodes.NOT_FOUND, "archive does not exist");
    assertFails(Cli.run("extract", archive, out.toString(), "no/such"), ExitCodes.NOT_FOUND,
        "'no/such' is not in archive");
    assertFails(Cli.run("extract", "--prefix", "zzz/", archive, out.toString()),
        ExitCodes.NOT_FOUND, "no member of file:");
    assertFalse(Files.exists(out));
    Cli.Result both = Cli.run("extract", "--prefix", "d0/", archive, out.toString(),
        files.firstKey());
    assertEquals(ExitCodes.USAGE, both.code(), both::toString);
    assertTrue(both.stderr().startsWith("hpf: give member names or --prefix, not both"));
    Path file = dir.resolve("file");
    Files.writeString(file, "x");
    Cli.Result onFile = Cli.run("extract", archive, file.toString());
    assertEquals(ExitCodes.USAGE, onFile.code(), onFile::toString);
    assertTrue(onFile.stderr().contains("is a file, not a directory"), onFile::toString);
    assertFails(Cli.run("extract", archive), ExitCodes.USAGE, "Missing required parameter");

    // A file where a member needs a directory.
    Path blocked = dir.resolve("blocked");
    Files.createDirectories(blocked);
    Files.writeString(blocked.resolve("d0"), "in the way");
    assertFails(Cli.run("extract", "--force", "--prefix", "d0/", archive, blocked.toString()),
        ExitCodes.EXISTS, "a file is in the way of the directory");
  }

  static void assertTreeEquals(Map<String, byte[]> expected, Path root) throws IOException {
    assertEquals(expected.size(), countFiles(root), "files under " + root);
    for (var e : expected.entrySet()) {
      assertArrayEquals(e.getValue(), Files.readAllBytes(root.resolve(e.getKey())), e.getKey());
    }
  }

  static long countFiles(Path root) throws IOException {
    if (!Files.exists(root)) {
      return 0;
    }
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile).count();
    }
  }

  @Test
  void utf8AndColonNames() throws IOException {
    Path src = dir.resolve("names");
    Map<String, byte[]> odd = Map.of("10:00.log", "colon".getBytes(StandardCharsets.UTF_8),
        "日本/ファイル.txt", "utf8".getBytes(StandardCharsets.UTF_8),
        "a b/c%20d#e.txt", "spaces".getBytes(StandardCharsets.UTF_8));
    TestTrees.write(src, odd);
    String a = TestTrees.create(src, dir.resolve("odd.hpf"));
    Path out = dir.resolve("odd-out");
    Cli.Result r = Cli.run("extract", a, out.toString());
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    assertTreeEquals(odd, out);
  }
}
