package org.hpf.internal.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.hpf.ArchiveWriter;
import org.hpf.CommitResult;
import org.hpf.HpfArchive;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Cache pool names built from the pool setting and an archive's owner: normal names are kept as
 * they are, a name HDFS refuses or no listing could show is one clear error, never another
 * owner's pool, and the commands hpf suggests quote a name a shell would split.
 */
@Tag("slow")
class CachePoolNameTest {
  private static final String FORGED = "bob\nhpf: warning: nothing to see";
  private static DistributedFileSystem fs;
  private static Path dir;

  @BeforeAll
  static void cluster() throws IOException {
    fs = MiniDfs.shared().fileSystem();
    dir = fs.makeQualified(new Path("/cache-pool-names"));
    fs.mkdirs(dir);
  }

  /** A directory owned by {@code owner}, as an archive's. */
  private static Path ownedBy(String name, String owner) throws IOException {
    Path archive = new Path(dir, name);
    fs.mkdirs(archive);
    fs.setOwner(archive, owner, null);
    return archive;
  }

  @Test
  void normalNamesAreKept() throws IOException {
    assertEquals("hpf-alice", CachePinning.poolOf(fs, ownedBy("a.hpf", "alice"), "hpf-{owner}"));
    assertEquals("hpf-alice@EXAMPLE.COM", CachePinning.poolOf(fs,
        ownedBy("k.hpf", "alice@EXAMPLE.COM"), "hpf-{owner}"));
    assertEquals("hpf-john smith", CachePinning.poolOf(fs, ownedBy("j.hpf", "john smith"),
        "hpf-{owner}"));
    assertEquals("shared", CachePinning.poolOf(fs, ownedBy("s.hpf", "alice"), "shared"));
  }

  @Test
  void anOwnerWhoseNameCannotFormAPoolIsOneClearError() throws IOException {
    Path archive = ownedBy("forged.hpf", FORGED);
    InvalidCachePoolException e = assertThrows(InvalidCachePoolException.class,
        () -> CachePinning.poolOf(fs, archive, "hpf-{owner}"));
    assertEquals("cache pool name 'hpf-bob\\nhpf: warning: nothing to see' for " + archive
        + " (from the setting 'hpf-{owner}' and the owner 'bob\\nhpf: warning: nothing to see'"
        + " of its directory) is not valid: it holds a control character, which no listing or"
        + " message shows as it is; name another pool with --cache-pool or hpf.hdfs.cache.pool",
        e.getMessage());
  }

  @Test
  void aPoolSettingHdfsRefusesIsOneClearError() throws IOException {
    Path archive = ownedBy("e.hpf", "alice");
    for (String setting : List.of("", " ", "{owner} ")) {
      InvalidCachePoolException e = assertThrows(InvalidCachePoolException.class,
          () -> CachePinning.poolOf(fs, archive, setting), "'" + setting + "'");
      assertTrue(e.getMessage().contains("is not valid: "), e.getMessage());
    }
  }

  /**
   * A commit to an archive whose owner cannot form a pool name succeeds, with one warning on one
   * line; no pool of that name is made.
   */
  @Test
  void aCommitWarnsOnceAndMakesNoPool() throws IOException {
    Path archive = new Path(dir, "commit.hpf");
    try (ArchiveWriter writer = HpfArchive.create(archive, fs.getConf())) {
      writer.add("a.txt", "a".getBytes(StandardCharsets.UTF_8));
      writer.commit();
    }
    fs.setOwner(archive, FORGED, null);
    CommitResult result;
    try (ArchiveWriter writer = HpfArchive.openWriter(archive, fs.getConf())) {
      writer.add("b.txt", "b".getBytes(StandardCharsets.UTF_8));
      result = writer.commit();
    }
    List<String> pools = result.warnings().stream()
        .filter(w -> w.contains("cache pool name")).toList();
    assertEquals(1, pools.size(), result.warnings().toString());
    assertTrue(pools.get(0).startsWith("cache pinning failed: cache pool name 'hpf-bob\\nhpf"),
        pools.get(0));
    assertFalse(result.warnings().stream().anyMatch(w -> w.contains("\n")),
        result.warnings().toString());
    for (var it = fs.listCachePools(); it.hasNext(); ) {
      assertFalse(it.next().getInfo().getPoolName().contains("\n"), "a pool of the forged name");
    }
  }

  /** A setting no owner can make valid is refused where it is given, before any write. */
  @Test
  void theSettingIsCheckedWhereItIsGiven() {
    for (String setting : List.of("hpf-{owner}\n", "pool\tof {owner}", " hpf-{owner}")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> org.hpf.WriteSettings.builder().cachePool(setting), setting);
      assertTrue(e.getMessage().startsWith("cache pool name is not valid: "), e.getMessage());
    }
    assertEquals("hpf-{owner}", org.hpf.WriteSettings.builder().cachePool("hpf-{owner}").build()
        .cachePool());
  }

  @Test
  void suggestedCommandsQuoteANameAShellWouldSplit() throws IOException {
    String problem = CachePools.ensure(fs, new CachePools.Pool("hpf-john smith", "john smith"),
        false);
    assertEquals("cache pool 'hpf-john smith' does not exist (create it: hdfs cacheadmin"
        + " -addPool 'hpf-john smith' -owner 'john smith' -mode 0700)", problem);
    assertEquals("cache pool 'hpf-alice' does not exist (create it: hdfs cacheadmin"
        + " -addPool hpf-alice -owner alice -mode 0700)",
        CachePools.ensure(fs, new CachePools.Pool("hpf-alice", "alice"), false));
  }
}
