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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** append, rm, compact and recover on the local file system. */
class MutationCommandsTest {
  /** The archive every test starts from, created once and copied. */
  @TempDir
  static Path shared;

  private static TreeMap<String, byte[]> files;
  private static Path template;

  @TempDir
  Path dir;

  private String archive;

  @BeforeAll
  static void createTemplate() throws IOException {
    files = TestTrees.write(shared.resolve("src"), 30, 11);
    template = Path.of(TestTrees.create(shared.resolve("src"), shared.resolve("a.hpf"),
        "--part-size", "16k"));
  }

  @BeforeEach
  void copyArchive() throws IOException {
    archive = TestTrees.copy(template, dir.resolve("a.hpf")).toString();
  }

  private Path more(Map<String, byte[]> content) throws IOException {
    Path more = dir.resolve("more-" + content.hashCode());
    TestTrees.write(more, content);
    return more;
  }

  @Test
  void appendAddsAndSummarizes() throws IOException {
    Path more = more(Map.of("new/a.txt", "a\n".getBytes(StandardCharsets.UTF_8),
        "new/b.txt", "b\n".getBytes(StandardCharsets.UTF_8)));
    Cli.Result r = Cli.run("append", "--threads", "1", archive, more.toString());
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    String out = r.out();
    assertTrue(out.startsWith("appended to file:"), out);
    assertTrue(out.contains("generation 2"), out);
    assertTrue(out.contains("2 added, 0 replaced; 32 in the archive"), out);
    for (String field : List.of("written", "time", "throughput")) {
      assertTrue(out.contains(field), out);
    }
    assertEquals("a\n", Cli.run("cat", archive, "new/a.txt").out());
    assertEquals(32, TestTrees.ls(archive).size());
  }

  @Test
  void appendRefusesExistingNamesUnlessReplace() throws IOException {
    String name = files.firstKey();
    Path more = more(Map.of(name, "replacement".getBytes(StandardCharsets.UTF_8),
        "other.txt", "x".getBytes(StandardCharsets.UTF_8)));
    Cli.Result refused = Cli.run("append", archive, more.toString());
    assertFails(refused, ExitCodes.EXISTS, "use --replace to overwrite them");
    assertTrue(refused.stderr().contains(name), refused::toString);
    assertEquals(files.size(), TestTrees.ls(archive).size(), "nothing was added");

    Cli.Result replaced = Cli.run("append", "--replace", archive, more.toString());
    assertEquals(ExitCodes.OK, replaced.code(), replaced::toString);
    assertTrue(replaced.out().contains("1 added, 1 replaced"), replaced::toString);
    assertEquals("replacement", Cli.run("cat", archive, name).out());
  }

  /**
   * A file and a name below it ({@code d/e} from one root, {@code d/e/f} from another, or one of
   * them already in the archive) are refused with one line and exit code 2; nothing changes.
   */
  @Test
  void namesThatWouldBeAFileAndADirectoryAreRefused() throws IOException {
    Path one = more(Map.of("d/e", "file".getBytes(StandardCharsets.UTF_8)));
    Path two = more(Map.of("d/e/f", "below".getBytes(StandardCharsets.UTF_8)));
    Path created = dir.resolve("new.hpf");
    Cli.Result r = Cli.run("create", one.toString(), two.toString(), created.toString());
    assertEquals(ExitCodes.USAGE, r.code(), r::toString);
    TestTrees.assertOneErrorLine(r, "'d/e' cannot be both a file and the directory of 'd/e/f'");
    assertFalse(Files.exists(created), "a refused create leaves nothing");

    String existing = files.firstKey();
    Path below = more(Map.of(existing + "/x", "below".getBytes(StandardCharsets.UTF_8)));
    Map<String, Long> before = TestTrees.files(Path.of(archive));
    r = Cli.run("append", archive, below.toString());
    assertEquals(ExitCodes.USAGE, r.code(), r::toString);
    TestTrees.assertOneErrorLine(r, "the archive has '" + existing + "'");
    assertEquals(before, TestTrees.files(Path.of(archive)), "the archive as it was");
  }

  @Test
  void appendErrors() throws IOException {
    Path more = more(Map.of("x.txt", "x".getBytes(StandardCharsets.UTF_8)));
    assertFails(Cli.run("append", dir.resolve("nope.hpf").toString(), more.toString()),
        ExitCodes.NOT_FOUND, "archive does not exist");
    assertFails(Cli.run("append", archive, dir.resolve("missing").toString()),
        ExitCodes.NOT_FOUND, "source does not exist");
    assertFails(Cli.run("append", archive), ExitCodes.USAGE, "Missing required parameter");
    assertFails(Cli.run("append", "--threads", "0", archive, more.toString()), ExitCodes.USAGE,
        "threads must be at least 1");
    assertFails(Cli.run("append", "--compress", "zip", archive, more.toString()),
        ExitCodes.USAGE, "'zip' is not one of auto, lz4, none");
  }

  /**
   * A writer must never be opened on a directory that is not an archive: its garbage collection
   * would delete files named like parts (a MapReduce job's part-r-00000).
   */
  @Test
  void writersRefuseDirectoriesThatAreNotArchives() throws IOException {
    Path output = dir.resolve("mr-output");
    Files.createDirectories(output);
    Files.writeString(output.resolve("part-r-00000"), "job output");
    Files.writeString(output.resolve("_SUCCESS"), "");
    Path more = more(Map.of("x.txt", "x".getBytes(StandardCharsets.UTF_8)));
    List<String[]> commands = List.of(
        new String[] {"append", output.toString(), more.toString()},
        new String[] {"rm", output.toString(), "part-r-00000"},
        new String[] {"compact", output.toString()},
        new String[] {"recover", output.toString()});
    for (String[] args : commands) {
      Cli.Result r = Cli.run(args);
      assertFails(r, ExitCodes.NOT_FOUND, "is not an hpf archive: no _manifests directory");
    }
    try (Stream<Path> left = Files.list(output)) {
      assertEquals(List.of("_SUCCESS", "part-r-00000"),
          left.map(p -> p.getFileName().toString()).sorted().toList(), "untouched");
    }
  }

  /**
   * A change that was published and then hit an I/O error (deleting the lock, which release
   * first moves to {@code _lock.released-<token>}, or the journal, as when HDFS loses a
   * pipeline's DataNodes) succeeds with a warning: it is in the archive, and
   * running it again finds its names there. Each warning is said once, as {@code hpf: warning:},
   * and not logged again.
   */
  @Test
  void aChangeThatFailsAfterItsCommitSucceedsWithAWarning() throws IOException {
    try (CapturedLog log = new CapturedLog()) {
      changesThatFailAfterTheirCommits();
      assertEquals(List.of(), log.events().stream().filter(e -> e.message() != null
          && e.message().contains("committed, but")).toList(), "logged again");
    }
  }

  private void changesThatFailAfterTheirCommits() throws IOException {
    String flaky = "flaky://" + Path.of(archive).toAbsolutePath();
    int added = 0;
    for (String failing : new String[] {"_lock.*", "_journal-.*"}) {
      Path more = more(Map.of("late/" + failing.charAt(1) + ".txt",
          failing.getBytes(StandardCharsets.UTF_8)));
      Cli.Result r = Cli.run(flakyArgs(failing, "append", "--threads", "1", flaky,
          more.toString()));
      assertEquals(ExitCodes.OK, r.code(), r::toString);
      assertTrue(r.stderr().contains("hpf: warning: ")
          && r.stderr().contains("Failed to replace a bad datanode"), r::toString);
      added++;
      assertEquals(files.size() + added, listed().size());
      Cli.Result again = Cli.run("append", archive, more.toString());
      assertEquals(ExitCodes.EXISTS, again.code(), again::toString);
    }
    String doomed = files.firstKey();
    Cli.Result rm = Cli.run(flakyArgs("_lock.*", "rm", flaky, doomed));
    assertEquals(ExitCodes.OK, rm.code(), rm::toString);
    assertTrue(rm.stderr().contains("hpf: warning: "), rm::toString);
    assertFalse(listed().contains(doomed));
    Cli.Result compact = Cli.run(flakyArgs("_lock.*", "compact", "--min-live", "1", flaky));
    assertEquals(ExitCodes.OK, compact.code(), compact::toString);
    assertTrue(compact.stderr().contains("hpf: warning: "), compact::toString);
    assertEquals(ExitCodes.OK, Cli.run("verify", archive).code());
    Path created = dir.resolve("b.hpf");
    Cli.Result create = Cli.run(flakyArgs("_lock.*", "create", shared.resolve("src").toString(),
        "flaky://" + created.toAbsolutePath()));
    assertEquals(ExitCodes.OK, create.code(), create::toString);
    assertTrue(create.stderr().contains("hpf: warning: "), create::toString);
    assertEquals(ExitCodes.OK, Cli.run("verify", created.toString()).code());
  }

  /** The command's arguments, with the flaky file system failing deletes of {@code files}. */
  private static String[] flakyArgs(String files, String... command) {
    List<String> args = new ArrayList<>(List.of(command[0],
        "-Dfs.flaky.impl=" + FlakyLocalFileSystem.class.getName(),
        "-Dfs.flaky.impl.disable.cache=true",
        "-D" + FlakyLocalFileSystem.FAIL_DELETE + "=" + files));
    args.addAll(List.of(command).subList(1, command.length));
    return args.toArray(new String[0]);
  }

  private List<String> listed() {
    Cli.Result ls = Cli.run("ls", archive);
    assertEquals(ExitCodes.OK, ls.code(), ls::toString);
    return ls.out().lines().toList();
  }

  @Test
  void rmRemovesAllOrNothing() {
    List<String> names = new ArrayList<>(files.keySet());
    Cli.Result r = Cli.run("rm", archive, names.get(1), names.get(2));
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    assertTrue(r.out().startsWith("removed 2 file(s) from file:"), r::toString);
    assertTrue(r.out().contains("generation 2, 28 file(s) left"), r::toString);
    assertFalse(TestTrees.ls(archive).contains(names.get(1)));

    Cli.Result missing = Cli.run("rm", archive, names.get(3), "no/such/name");
    assertFails(missing, ExitCodes.NOT_FOUND, "'no/such/name' is not in archive");
    assertTrue(TestTrees.ls(archive).contains(names.get(3)), "all or nothing");

    assertFails(Cli.run("rm", archive), ExitCodes.USAGE, "Missing required parameter");
    assertFails(Cli.run("rm", dir.resolve("nope.hpf").toString(), "x"), ExitCodes.NOT_FOUND,
        "archive does not exist");
    Cli.Result quiet = Cli.run("rm", "-q", archive, names.get(4));
    assertEquals("", quiet.out() + quiet.stderr());
  }

  @Test
  void compactReclaimsTheSpaceOfRemovedMembers() throws IOException {
    List<String> names = new ArrayList<>(files.keySet());
    List<String> remove = names.subList(0, 20);
    assertEquals(ExitCodes.OK, Cli.run(concat(List.of("rm", "-q", archive), remove)).code());
    long before = partBytes();

    Cli.Result r = Cli.run("compact", "--min-live", "0.9", archive);
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    assertTrue(r.out().startsWith("compacted file:"), r::toString);
    assertTrue(r.out().contains("generation 3"), r::toString);
    assertTrue(r.out().contains("files          10"), r::toString);
    assertTrue(partBytes() < before, "parts shrank: " + before + " -> " + partBytes());

    for (String name : names.subList(20, names.size())) {
      Cli.Result get = Cli.run("get", archive, name);
      assertArrayEquals(files.get(name), get.stdout(), name);
    }
    Cli.Result verify = Cli.run("verify", archive);
    assertEquals(ExitCodes.OK, verify.code(), verify::toString);
    Cli.Result info = Cli.run("info", "--json", archive);
    assertTrue(info.out().contains("\"indexLayers\": [\n    {"), "one layer after compaction");
    assertTrue(info.out().contains("\"namesSegments\": 1,"), info::toString);
  }

  @Test
  void compactErrors() {
    assertFails(Cli.run("compact", "--min-live", "1.5", archive), ExitCodes.USAGE,
        "--min-live must be between 0 and 1");
    assertFails(Cli.run("compact", "--min-live", "half", archive), ExitCodes.USAGE, "half");
    assertFails(Cli.run("compact", dir.resolve("nope.hpf").toString()), ExitCodes.NOT_FOUND,
        "archive does not exist");
  }

  @Test
  void lockedArchiveNeedsRecoverBreakLock() throws IOException {
    String holder = "append by alice@gateway-3 (pid 4711) since 2026-01-05T08:00:00Z";
    Files.writeString(Path.of(archive, "_lock"), holder + "\n");
    Path more = more(Map.of("x.txt", "x".getBytes(StandardCharsets.UTF_8)));
    for (String[] args : List.of(new String[] {"append", archive, more.toString()},
        new String[] {"rm", archive, files.firstKey()},
        new String[] {"compact", archive},
        new String[] {"recover", archive})) {
      Cli.Result r = Cli.run(args);
      assertFails(r, ExitCodes.LOCKED, "is locked by " + holder);
      assertTrue(r.stderr().contains("hpf recover --break-lock"), r::toString);
    }
    assertEquals(ExitCodes.OK, Cli.run("ls", archive).code(), "readers take no lock");

    Cli.Result broken = Cli.run("recover", "--break-lock", archive);
    assertEquals(ExitCodes.OK, broken.code(), broken::toString);
    assertEquals("broke the lock of " + holder, broken.out().lines().findFirst().orElseThrow());
    assertTrue(broken.out().contains("nothing to recover (generation 1)"), broken::toString);
    assertFalse(Files.exists(Path.of(archive, "_lock")));
    assertEquals(ExitCodes.OK, Cli.run("append", "-q", archive, more.toString()).code());
  }

  @Test
  void recoverRemovesWhatADeadWriterLeft() throws IOException {
    Cli.Result clean = Cli.run("recover", archive);
    assertEquals(ExitCodes.OK, clean.code(), clean::toString);
    assertTrue(clean.out().endsWith(": nothing to recover (generation 1)\n"), clean::toString);

    // A crash after a commit point leaves the journal of the committed generation; a crash
    // before one leaves parts that no manifest names.
    Files.write(Path.of(archive, "_journal-0000000001"), new byte[] {1, 2, 3});
    Files.write(Path.of(archive, "part-000777"), new byte[100]);
    Cli.Result r = Cli.run("recover", archive);
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    assertTrue(r.out().contains("1 stale journals removed; 1 leftover files removed"),
        r::toString);
    assertFalse(Files.exists(Path.of(archive, "_journal-0000000001")));
    assertFalse(Files.exists(Path.of(archive, "part-000777")));
    assertEquals(ExitCodes.OK, Cli.run("verify", "-q", archive).code());

    // A writer recovers too, and says so.
    Files.write(Path.of(archive, "part-000778"), new byte[100]);
    Cli.Result rm = Cli.run("rm", archive, files.firstKey());
    assertEquals(ExitCodes.OK, rm.code(), rm::toString);
    assertEquals("hpf: recovered first (a writer had died): 1 leftover files removed\n",
        rm.stderr());

    assertFails(Cli.run("recover", dir.resolve("nope.hpf").toString()), ExitCodes.NOT_FOUND,
        "archive does not exist");
  }

  /** Bytes of the current generation's part files, from {@code hpf info --json}. */
  private long partBytes() throws IOException {
    return ((Number) TestTrees.info(archive).get("partBytes")).longValue();
  }

  private static String[] concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all.toArray(new String[0]);
  }

  @Test
  void deleteSourcesRefusesLazyPersistPartsBeforeWritingAnything() throws IOException {
    Path src = more(Map.of("lazy/a.txt", "a\n".getBytes(StandardCharsets.UTF_8)));
    Path created = dir.resolve("lazy.hpf");
    assertFails(Cli.run("create", "--delete-sources", "--storage-policy", "lazy_persist",
        src.toString(), created.toString()), ExitCodes.USAGE,
        "--delete-sources needs parts that are durable on disk");
    assertFalse(Files.exists(created), "nothing was written");
    assertFails(Cli.run("append", "--delete-sources", "--storage-policy", "LAZY_PERSIST",
        archive, src.toString()), ExitCodes.USAGE,
        "--delete-sources needs parts that are durable on disk");
    assertEquals(files.size(), TestTrees.ls(archive).size(), "nothing was appended");
    assertTrue(Files.exists(src.resolve("lazy/a.txt")), "the source is still there");
  }
}
