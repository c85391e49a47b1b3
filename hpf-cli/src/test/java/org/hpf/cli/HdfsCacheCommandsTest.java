package org.hpf.cli;

import static org.hpf.cli.TestTrees.assertFails;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.StorageType;
import org.hpf.internal.hdfs.RamDiskCluster;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HDFS flags of create and append ({@code --storage-policy}, {@code --no-cache},
 * {@code --cache-pool}) and {@code hpf cache}, on a cluster whose DataNodes have RAM_DISK and
 * locked memory, so that LazyPersist and caching really happen.
 */
@Tag("hdfs")
class HdfsCacheCommandsTest {
  private static RamDiskCluster cluster;
  private static String uri;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() throws IOException {
    cluster = RamDiskCluster.start("cli-cache", 3);
    uri = cluster.cluster().getURI().toString();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** A command with the cluster's fast-client settings and 1 MiB blocks (see RamDiskCluster). */
  private static String[] args(String command, String... rest) {
    List<String> all = new ArrayList<>(List.of(command,
        "-D", "dfs.client.block.write.locateFollowingBlock.initial.delay.ms=10",
        "-D", "dfs.blocksize=" + RamDiskCluster.BLOCK_SIZE));
    all.addAll(List.of(rest));
    return all.toArray(new String[0]);
  }

  private static Cli.Result ok(String command, String... rest) {
    Cli.Result r = Cli.run(args(command, rest));
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    return r;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> status(String archive, String... options) throws IOException {
    List<String> rest = new ArrayList<>(List.of("--status", "--json"));
    rest.addAll(List.of(options));
    rest.add(archive);
    return TestTrees.info(args("cache", rest.toArray(new String[0])));
  }

  private static long number(Map<String, Object> m, String key) {
    return ((Number) m.get(key)).longValue();
  }

  @Test
  @SuppressWarnings("unchecked")
  void lazyPersistCreateAndTheCacheLifecycle() throws Exception {
    TestTrees.write(dir.resolve("src"), 40, 5);
    TestTrees.write(dir.resolve("more"), 10, 6);
    String archive = uri + "/cache/" + System.nanoTime() + "/logs.hpf";

    // Parts of 8 MiB get 1 MiB blocks: a DataNode reserves a block's size of its 64 MiB of
    // locked memory for each replica it writes to RAM_DISK.
    Cli.Result created = ok("create", "--threads", "2", "--part-size", "8m",
        "--storage-policy", "lazy_persist",
        dir.resolve("src").toUri().toString(), archive);
    assertTrue(created.out().contains("  hdfs           parts: LAZY_PERSIST"), created::toString);
    assertTrue(created.out().matches("(?s).*of \\d+ blocks in RAM_DISK.*"), created::toString);
    // The parts' replicas are in memory: what the flag asked for.
    for (FileStatus part : cluster.fileSystem().globStatus(
        new org.apache.hadoop.fs.Path(archive, "part-*"))) {
      for (BlockLocation block : cluster.fileSystem().getFileBlockLocations(part, 0,
          part.getLen())) {
        assertTrue(List.of(block.getStorageTypes()).contains(StorageType.RAM_DISK),
            part.getPath() + ": " + List.of(block.getStorageTypes()) + "\n" + created);
      }
    }

    // create pinned the index: --wait until the DataNodes report it cached.
    Cli.Result waited = ok("cache", "--status", "--wait", "30", archive);
    assertTrue(waited.out().contains("state            fully cached"), waited::toString);
    Map<String, Object> s = status(archive);
    assertTrue(number(s, "bytesNeeded") > 0 && number(s, "bytesCached") == number(s,
        "bytesNeeded"), s::toString);
    assertEquals(number(s, "filesWanted"), number(s, "directives"), s::toString);
    Map<String, Object> info = TestTrees.info(args("info", "--json", archive));
    assertEquals("fully cached", ((Map<String, Object>) info.get("cache")).get("state"));

    Cli.Result unpinned = ok("cache", "--unpin", archive);
    assertTrue(unpinned.out().startsWith("removed " + s.get("directives") + " cache directive"),
        unpinned::toString);
    s = status(archive);
    assertEquals(0, number(s, "directives"), s::toString);
    assertTrue(((String) s.get("state")).startsWith("not pinned"), s::toString);

    Cli.Result pinned = ok("cache", "--pin", "--wait", "30", archive);
    assertTrue(pinned.out().startsWith("pinned " + s.get("filesWanted") + " file(s)"),
        pinned::toString);
    assertTrue(pinned.out().contains("state            fully cached"), pinned::toString);

    // An append with --no-cache leaves its new index files unpinned and the old directives.
    ok("append", "--no-cache", "--replace", archive, dir.resolve("more").toUri().toString());
    s = status(archive);
    assertTrue(number(s, "directives") < number(s, "filesWanted"), s::toString);
    assertTrue(number(s, "staleDirectives") > 0, s::toString);
    assertTrue(((String) s.get("state")).contains("pinned") && ((String) s.get("state"))
        .endsWith(s.get("staleDirectives") + " directive(s) of files older generations used"),
        s::toString);
    // The next commit that pins brings the directives back in line with its generation.
    Cli.Result removed = ok("rm", archive, firstName(archive));
    assertTrue(removed.out().contains("  hdfs           pinned "), removed::toString);
    s = status(archive, "--wait", "30");
    assertEquals("fully cached", s.get("state"), s::toString);
    assertEquals(0, number(s, "staleDirectives"), s::toString);

    // A compaction (through the command's byte-counting storage) pins its new index files and
    // drops the directives of the files it retires, as every commit does.
    Cli.Result compacted = ok("compact", "--min-live", "1", archive);
    assertTrue(compacted.out().contains("  hdfs           pinned "), compacted::toString);
    s = status(archive, "--wait", "30");
    assertEquals("fully cached", s.get("state"), s::toString);
    assertEquals(number(s, "filesWanted"), number(s, "directives"), s::toString);
    assertEquals(0, number(s, "staleDirectives"), s::toString);
  }

  @Test
  void anotherPoolAndNoCache() throws Exception {
    TestTrees.write(dir.resolve("src"), 20, 7);
    String base = uri + "/cache/" + System.nanoTime();
    String pooled = base + "/pooled.hpf";
    String plain = base + "/plain.hpf";
    ok("create", "--cache-pool", "ops", "--cache-ttl", "2h", dir.resolve("src").toUri().toString(),
        pooled);
    Map<String, Object> s = status(pooled, "--cache-pool", "ops", "--wait", "30");
    assertEquals("fully cached", s.get("state"), s::toString);
    assertEquals("ops", s.get("pool"));
    assertEquals(0, number(status(pooled), "directives"), "nothing in the default pool");

    Cli.Result created = ok("create", "--no-cache", dir.resolve("src").toUri().toString(), plain);
    assertTrue(created.out().contains("  hdfs           cache pinning off"), created::toString);
    assertEquals(0, number(status(plain), "directives"));
  }

  @Test
  void waitingForACacheThatCannotHoldTheIndexFails() throws Exception {
    // The shared cluster's DataNodes have no locked memory: directives are added but nothing
    // is ever cached.
    MiniDfs shared = MiniDfs.shared();
    TestTrees.write(dir.resolve("src"), 10, 8);
    String archive = shared.cluster().getURI() + "/cache/" + System.nanoTime() + "/a.hpf";
    Cli.Result created = Cli.run("create", "-D",
        "dfs.client.block.write.locateFollowingBlock.initial.delay.ms=10",
        dir.resolve("src").toUri().toString(), archive);
    assertEquals(ExitCodes.OK, created.code(), created::toString);
    // Said once, as a warning; the summary points to it.
    assertEquals(List.of("hpf: warning: the DataNodes have no memory for caching"),
        created.stderr().lines().filter(l -> l.startsWith("hpf: "))
            .map(l -> l.replaceAll(" \\(.*", "")).toList(),
        created::toString);
    assertTrue(created.out().contains("directives; see the warning"), created::toString);
    assertTrue(!created.out().contains("no memory for caching"), created::toString);
    Cli.Result pin = Cli.run("cache", "--pin", "--wait", "2", archive);
    assertEquals(ExitCodes.ERROR, pin.code(), pin::toString);
    List<String> errors = pin.stderr().lines().toList();
    assertTrue(errors.get(0).startsWith("hpf: warning: the DataNodes have no memory for caching"),
        pin::toString);
    assertTrue(errors.get(errors.size() - 1).startsWith("hpf: not fully cached after 2 s: 0 of"),
        pin::toString);
  }

  /**
   * A pool hpf creates is its creator's alone: another user lists no directive of it, so sees
   * neither the archive's index files nor their sizes.
   */
  @Test
  void anotherUserListsNoDirectiveOfAPoolHpfCreated() throws Exception {
    MiniDfs shared = MiniDfs.shared();
    TestTrees.write(dir.resolve("pool-src"), 5, 9);
    String pool = "own-" + System.nanoTime();
    String archive = shared.cluster().getURI() + "/cache/" + System.nanoTime() + "/a.hpf";
    Cli.Result created = Cli.run("create", "--cache-pool", pool, "-D",
        "dfs.client.block.write.locateFollowingBlock.initial.delay.ms=10",
        dir.resolve("pool-src").toUri().toString(), archive);
    assertEquals(ExitCodes.OK, created.code(), created::toString);
    assertTrue(created.out().contains(" in pool " + pool), created::toString);
    List<String> seen = org.apache.hadoop.security.UserGroupInformation.createRemoteUser("bob")
        .doAs((java.security.PrivilegedExceptionAction<List<String>>) () -> {
          List<String> paths = new java.util.ArrayList<>();
          try (var fs = (org.apache.hadoop.hdfs.DistributedFileSystem)
              org.apache.hadoop.fs.FileSystem.newInstance(shared.cluster().getURI(),
                  shared.configuration())) {
            var it = fs.listCacheDirectives(null);
            while (it.hasNext()) {
              var info = it.next().getInfo();
              if (info.getPool().equals(pool)) {
                paths.add(info.getPath().toString());
              }
            }
          }
          return paths;
        });
    assertEquals(List.of(), seen);
  }

  private static String firstName(String archive) {
    return TestTrees.ls(archive).get(0);
  }
}
