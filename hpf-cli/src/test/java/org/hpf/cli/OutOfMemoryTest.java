package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command that runs out of memory in a writer thread, in-process: the error is simulated by a
 * local file system whose {@code open} of a source named {@code *.oom} throws it (HpfProcessIT
 * runs out of a real, small heap). The user gets one line and exit code 1, and the writer has
 * removed what it wrote before the line is printed.
 */
class OutOfMemoryTest {
  @TempDir
  Path dir;

  /**
   * The local file system, except that opening {@code *.oom} runs out of memory (in its raw
   * file system: the writer reads local sources without checksums).
   */
  public static final class OutOfMemoryFileSystem extends LocalFileSystem {
    public OutOfMemoryFileSystem() {
      super(new RawLocalFileSystem() {
        @Override
        public FSDataInputStream open(org.apache.hadoop.fs.Path f, int bufferSize)
            throws IOException {
          if (f.getName().endsWith(".oom")) {
            throw new OutOfMemoryError("Java heap space");
          }
          if (f.getName().endsWith(".oom-cause")) {
            throw new IOException("could not read " + f, new OutOfMemoryError("Java heap space"));
          }
          return super.open(f, bufferSize);
        }
      });
    }
  }

  /** Options that give file:// paths the file system above (uncached, not to leak it). */
  private static final List<String> OUT_OF_MEMORY_FS = List.of(
      "-D", "fs.file.impl=" + OutOfMemoryFileSystem.class.getName(),
      "-D", "fs.file.impl.disable.cache=true");

  /**
   * 40 files named {@code new/...} (no name of the base archive), then {@code z/last.<trigger>},
   * last in name order.
   */
  private Path sources(String trigger) throws IOException {
    Path src = dir.resolve("src-" + trigger);
    TestTrees.write(src.resolve("new"), 40, 7);
    Files.createDirectories(src.resolve("z"));
    Files.write(src.resolve("z/last." + trigger), new byte[] {1, 2, 3});
    return src;
  }

  private static Cli.Result run(String command, String... args) {
    List<String> all = new java.util.ArrayList<>(List.of(command, "-q", "--threads", "2"));
    all.addAll(OUT_OF_MEMORY_FS);
    all.addAll(List.of(args));
    return Cli.run(all.toArray(new String[0]));
  }

  @Test
  void createRemovesTheArchiveAndPrintsOneLine() throws IOException {
    for (String trigger : List.of("oom", "oom-cause")) {
      Path archive = dir.resolve(trigger + ".hpf");
      Path scratch = dir.resolve("scratch-" + trigger);
      Cli.Result r = run("create", "--scratch-dir", scratch.toString(),
          sources(trigger).toString(), archive.toString());
      assertOutOfMemory(r);
      assertFalse(Files.exists(archive), "the failed create's directory is removed");
      assertEquals(Map.of(), TestTrees.files(scratch), "no scratch file left");
    }
  }

  @Test
  void appendLeavesTheArchiveAsItWas() throws IOException {
    Path base = dir.resolve("base");
    TestTrees.write(base, 30, 3);
    String archive = TestTrees.create(base, dir.resolve("a.hpf"));
    Map<String, Long> before = TestTrees.files(dir.resolve("a.hpf"));
    List<String> names = TestTrees.ls(archive);
    for (String trigger : List.of("oom", "oom-cause")) {
      Cli.Result r = run("append", archive, sources(trigger).toString());
      assertOutOfMemory(r);
      assertEquals(before, TestTrees.files(dir.resolve("a.hpf")), "no journal, part or index left");
      assertEquals(names, TestTrees.ls(archive));
    }
  }

  private static void assertOutOfMemory(Cli.Result r) {
    assertEquals(ExitCodes.ERROR, r.code(), r::toString);
    assertEquals("", r.out(), r::toString);
    TestTrees.assertOneErrorLine(r, "hpf: out of memory (Java heap space): the Java heap may use"
        + " at most " + Units.count(Runtime.getRuntime().maxMemory() >> 20) + " MiB; give it"
        + " more with JAVA_OPTS=-Xmx");
  }

  @Test
  void theTriggerWorks() throws IOException {
    // Without the file system above, the same sources make an archive: the error is the cause.
    Path src = sources("oom");
    Cli.Result r = Cli.run("create", "-q", src.toString(), dir.resolve("fine.hpf").toString());
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    assertTrue(TestTrees.ls(dir.resolve("fine.hpf").toString()).contains("z/last.oom"));
  }
}
