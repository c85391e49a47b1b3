package org.hpf.fs;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Hadoop's FsShell, unmodified, on hpf:// paths. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FsShellTest {
  @TempDir static java.nio.file.Path tmp;
  private SourceTree tree;
  private Configuration conf;
  private String base;

  @BeforeAll
  void createArchive() throws IOException {
    tree = new SourceTree(tmp.resolve("src"), 11, 30);
    conf = new Configuration();
    Path archive = new Path(tmp.resolve("shell.hpf").toUri());
    ArchiveCreator.create(conf, archive, List.of(new Path(tree.root.toUri())),
        WriterOptions.builder().settings(s -> s.threads(2)).build());
    base = "hpf://file-" + archive.toUri().getPath();
  }

  private ShellRun shell(String... args) throws Exception {
    return ShellRun.of(conf, args);
  }

  @Test
  void lsRecursive() throws Exception {
    ShellRun run = shell("-ls", "-R", base + "/text/d1");
    assertEquals(0, run.code(), run.err());
    List<String> expected = new ArrayList<>();
    for (int sub = 0; sub < 3; sub++) {
      String dir = "text/d1/sub" + sub;
      if (tree.countBelow(dir + "/") > 0) {
        expected.add("dr-xr-xr-x 0 " + base + "/" + dir);
        for (Map.Entry<String, byte[]> e : tree.files.entrySet()) {
          if (e.getKey().startsWith(dir + "/")) {
            expected.add("-r--r--r-- " + e.getValue().length + " " + base + "/" + e.getKey());
          }
        }
      }
    }
    List<String> got = new ArrayList<>();
    for (String line : run.out().split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      // permissions, replication, owner, group, size, date, time, path
      String[] f = line.trim().split("\\s+", 8);
      got.add(f[0] + " " + f[4] + " " + f[7]);
    }
    assertEquals(expected, got, run.out());
  }

  @Test
  void cat() throws Exception {
    String name = "text/with space.txt";
    ShellRun run = shell("-cat", base + "/" + name);
    assertEquals(0, run.code(), run.err());
    assertEquals(new String(tree.files.get(name), StandardCharsets.UTF_8), run.out());
    run = shell("-cat", base + "/text/größe-ü.txt");
    assertEquals("hpf hadoop\n", run.out());
  }

  @Test
  void get() throws Exception {
    java.nio.file.Path target = tmp.resolve("got");
    ShellRun run = shell("-get", base + "/text", target.toString());
    assertEquals(0, run.code(), run.err());
    run = shell("-get", base + "/" + SourceTree.BIG, tmp.resolve("big.bin").toString());
    assertEquals(0, run.code(), run.err());
    for (Map.Entry<String, byte[]> e : tree.files.entrySet()) {
      if (e.getKey().startsWith("text/")) {
        assertArrayEquals(e.getValue(), Files.readAllBytes(target.resolve(e.getKey()
            .substring("text/".length()))), e.getKey());
      }
    }
    assertArrayEquals(tree.files.get(SourceTree.BIG), Files.readAllBytes(tmp.resolve("big.bin")));
  }

  @Test
  void duAndCount() throws Exception {
    ShellRun run = shell("-du", "-s", base + "/text");
    assertEquals(0, run.code(), run.err());
    long bytes = tree.bytesBelow("text/");
    assertEquals(List.of(String.valueOf(bytes), String.valueOf(bytes), base + "/text"),
        List.of(run.out().trim().split("\\s+")));

    run = shell("-count", base + "/text", base + "/data");
    assertEquals(0, run.code(), run.err());
    String[] lines = run.out().trim().split("\n");
    // DIR_COUNT FILE_COUNT CONTENT_SIZE PATHNAME
    assertEquals(List.of("29", String.valueOf(tree.countBelow("text/")), String.valueOf(bytes),
        base + "/text"), List.of(lines[0].trim().split("\\s+")));
    assertEquals(List.of("1", "2", String.valueOf(tree.bytesBelow("data/")), base + "/data"),
        List.of(lines[1].trim().split("\\s+")));
  }

  @Test
  void checksum() throws Exception {
    String name = "text/d2/sub2/file-2.txt";
    ShellRun run = shell("-checksum", base + "/" + name);
    assertEquals(0, run.code(), run.err());
    CRC32C crc = new CRC32C();
    crc.update(tree.files.get(name));
    String hex = String.format("%08x", (int) crc.getValue());
    assertEquals(base + "/" + name + "\tCOMPOSITE-CRC32C\t" + hex, run.out().trim());
  }

  @Test
  void anAuthorityWithoutASchemeIsOneLineNotTheUsage() throws Exception {
    ShellRun run = shell("-ls", "hpf://nohyphen/x.hpf");
    assertEquals(1, run.code(), run.out() + run.err());
    assertEquals(1, run.err().lines().count(), run.err());
    assertTrue(run.err().contains("<scheme>-<authority>"), run.err());
  }

  @Test
  void aDirectoryWithoutAnArchiveIsOneLineWithTheReason() throws Exception {
    java.nio.file.Path junk = java.nio.file.Files.createDirectories(tmp.resolve("junk.hpf"));
    java.nio.file.Files.writeString(junk.resolve("notes.txt"), "not an archive");
    ShellRun run = shell("-ls", "hpf://file-" + junk.toAbsolutePath());
    assertEquals(1, run.code(), run.out() + run.err());
    assertEquals(1, run.err().lines().count(), run.err());
    assertTrue(run.err().contains("junk.hpf is not an hpf archive: no _manifests directory"),
        run.err());
  }

  @Test
  void changesAreRefused() throws Exception {
    for (String[] args : new String[][] {
        {"-mkdir", base + "/newdir"},
        {"-rm", base + "/text/empty.txt"},
        {"-put", tree.root.resolve("text/empty.txt").toString(), base + "/text/copy.txt"},
        {"-touchz", base + "/text/new.txt"},
        {"-mv", base + "/text/empty.txt", base + "/text/moved.txt"}}) {
      ShellRun run = shell(args);
      assertEquals(1, run.code(), args[0] + ": " + run.out() + run.err());
      assertTrue(run.err().contains("hpf:// is read-only"), args[0] + ": " + run.err());
      assertTrue(run.err().contains("'hpf rm'"), args[0] + ": " + run.err());
    }
  }
}
