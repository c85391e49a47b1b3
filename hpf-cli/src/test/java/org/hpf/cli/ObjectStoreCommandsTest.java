package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.hpf.testing.BucketKeys;
import org.hpf.testing.S3Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands on an archive on s3a:// (a real S3-protocol server): those that read work, those
 * that write exit with their own code and leave the bucket and the sources as they were.
 */
@Tag("s3")
class ObjectStoreCommandsTest {
  @TempDir
  static Path dir;
  private static S3Server server;
  private static FileSystem s3;
  private static TreeMap<String, byte[]> files;
  private static Path src;
  /** The server's settings, as an operator's site file would hold them. */
  private static String site;
  private static String archive;

  @BeforeAll
  static void copyAnArchiveToTheStore() throws IOException {
    server = S3Server.start();
    s3 = server.fileSystem();
    src = dir.resolve("src");
    files = TestTrees.write(src, 12, 7);
    Path written = dir.resolve("written.hpf");
    TestTrees.create(src, written);
    archive = server.bucketRoot() + "logs.hpf";
    Configuration local = new Configuration();
    FileUtil.copy(FileSystem.getLocal(local), new org.apache.hadoop.fs.Path(written.toUri()),
        s3, new org.apache.hadoop.fs.Path(archive), false, local);
    site = writeSite(server.configuration()).toString();
  }

  @AfterAll
  static void stopServer() throws IOException {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void readingCommandsWork() throws IOException {
    Cli.Result ls = Cli.run("ls", "--conf", site, archive);
    assertEquals(ExitCodes.OK, ls.code(), ls::toString);
    assertEquals(String.join("\n", files.keySet()) + "\n", ls.out());

    for (Map.Entry<String, byte[]> file : files.entrySet()) {
      Path out = dir.resolve("got-" + file.getKey().replace('/', '-'));
      Cli.Result get = Cli.run("get", "--conf", site, archive, file.getKey(), "-o",
          out.toString());
      assertEquals(ExitCodes.OK, get.code(), get::toString);
      assertArrayEquals(file.getValue(), Files.readAllBytes(out), file.getKey());
    }
  }

  @Test
  void writingCommandsAreRefusedAndWriteNothing() throws IOException {
    String member = files.firstKey();
    String fresh = server.bucketRoot() + "fresh.hpf";
    List<List<String>> commands = List.of(
        List.of("create", src.toString(), fresh),
        List.of("create", "--delete-sources", src.toString(), fresh),
        List.of("create", "--mapreduce", src.toString(), fresh),
        List.of("append", "--replace", archive, src.toString()),
        List.of("append", "--mapreduce", archive, src.toString()),
        List.of("rm", archive, member),
        List.of("compact", "--min-live", "1", archive),
        List.of("recover", archive),
        List.of("delete-sources", archive, src.toString()));
    SortedSet<String> before = BucketKeys.below(s3, server.bucketRoot());
    for (List<String> command : commands) {
      List<String> args = new java.util.ArrayList<>(command);
      args.addAll(1, List.of("-q", "--conf", site));
      Cli.Result r = Cli.run(args.toArray(new String[0]));
      assertEquals(ExitCodes.UNSUPPORTED_STORE, r.code(), () -> command + ": " + r);
      String err = r.stderr();
      assertTrue(err.startsWith("hpf: ") && err.contains(" is refused: the store at "
          + server.bucketRoot()) && err.contains("conditional create"),
          () -> command + ": " + r);
      assertEquals(before, BucketKeys.below(s3, server.bucketRoot()), command::toString);
      assertEquals(files.size(), TestTrees.files(src).size(), command::toString);
    }
  }

  /** The settings of {@code conf} that differ from Hadoop's defaults, as a site file. */
  private static Path writeSite(Configuration conf) throws IOException {
    Configuration defaults = new Configuration();
    Configuration site = new Configuration(false);
    for (Map.Entry<String, String> entry : conf) {
      if (!Objects.equals(entry.getValue(), defaults.get(entry.getKey()))) {
        site.set(entry.getKey(), entry.getValue());
      }
    }
    Path file = dir.resolve("s3-site.xml");
    try (OutputStream out = Files.newOutputStream(file)) {
      site.writeXml(out);
    }
    return file;
  }
}
