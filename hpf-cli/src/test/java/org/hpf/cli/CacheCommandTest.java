package org.hpf.cli;

import static org.hpf.cli.TestTrees.assertFails;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hpf cache} and the HDFS flags off HDFS, and their bad values (HDFS itself:
 * {@link HdfsCacheCommandsTest}).
 */
class CacheCommandTest {
  @TempDir
  Path dir;

  private String archive() throws Exception {
    TestTrees.write(dir.resolve("src"), 5, 3);
    return TestTrees.create(dir.resolve("src"), dir.resolve("a.hpf"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void offHdfsStatusSaysSkippedAndChangesAreRefused() throws Exception {
    String archive = archive();
    Cli.Result status = Cli.run("cache", archive);
    assertEquals(ExitCodes.OK, status.code(), status::toString);
    assertTrue(status.out().contains("skipped: the archive is on file://, not HDFS"),
        status::toString);
    Map<String, Object> info = TestTrees.info(archive);
    assertEquals(false, ((Map<String, Object>) info.get("cache")).get("available"));

    assertFails(Cli.run("cache", "--pin", archive), ExitCodes.USAGE, "cache pinning needs HDFS");
    assertFails(Cli.run("cache", "--unpin", archive), ExitCodes.USAGE,
        "cache pinning needs HDFS");
    assertFails(Cli.run("cache", "--pin", "--unpin", archive), ExitCodes.USAGE,
        "mutually exclusive");
    assertFails(Cli.run("cache", "--unpin", "--wait", "3", archive), ExitCodes.USAGE,
        "--wait goes with --status or --pin");
    assertFails(Cli.run("cache", dir.resolve("nothing.hpf").toString()), ExitCodes.NOT_FOUND,
        "archive does not exist");
  }

  @Test
  void createSaysTheHdfsFeaturesWereSkipped() throws Exception {
    TestTrees.write(dir.resolve("src"), 5, 4);
    Cli.Result r = Cli.run("create", "--storage-policy", "LAZY_PERSIST", dir.resolve("src")
        .toString(), dir.resolve("b.hpf").toString());
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    assertTrue(r.out().contains("  hdfs           HDFS features skipped: "), r::toString);
  }

  @Test
  void badValuesAreUsageErrorsBeforeAnyWork() throws Exception {
    TestTrees.write(dir.resolve("src"), 2, 5);
    String src = dir.resolve("src").toString();
    String target = dir.resolve("c.hpf").toString();
    assertFails(Cli.run("create", "--storage-policy", "FAST", src, target), ExitCodes.USAGE,
        "'FAST' is not an HDFS storage policy (HOT, WARM, COLD");
    assertFails(Cli.run("create", "--cache-ttl", "0m", src, target), ExitCodes.USAGE,
        "'0m' is not a positive time");
    assertFails(Cli.run("create", "--cache-ttl", "soon", src, target), ExitCodes.USAGE,
        "'soon' is not a time such as 30m");
    assertFails(Cli.run("create", "--cache-pool", " ", src, target), ExitCodes.USAGE,
        "cache pool name must not be empty");
    assertFails(Cli.run("create", "--cache-pool", "hpf-{owner}\t", src, target), ExitCodes.USAGE,
        "cache pool name is not valid: it holds a control character");
    assertTrue(!dir.resolve("c.hpf").toFile().exists(), "nothing was created");
  }

  @Test
  void policyNamesAreHdfsOwn() {
    assertEquals(List.of(HdfsConstants.HOT_STORAGE_POLICY_NAME,
        HdfsConstants.WARM_STORAGE_POLICY_NAME, HdfsConstants.COLD_STORAGE_POLICY_NAME,
        HdfsConstants.ONESSD_STORAGE_POLICY_NAME, HdfsConstants.ALLSSD_STORAGE_POLICY_NAME,
        HdfsConstants.ALLNVDIMM_STORAGE_POLICY_NAME, HdfsConstants.MEMORY_STORAGE_POLICY_NAME,
        HdfsConstants.PROVIDED_STORAGE_POLICY_NAME),
        MergeOptions.StoragePolicyConverter.POLICIES);
    assertEquals("LAZY_PERSIST", new MergeOptions.StoragePolicyConverter().convert("lazy_persist"));
  }

  @Test
  void timesInShortAndIsoForm() {
    CacheOptions.DurationConverter c = new CacheOptions.DurationConverter();
    assertEquals(Duration.ofSeconds(90), c.convert("90s"));
    assertEquals(Duration.ofMinutes(30), c.convert("30m"));
    assertEquals(Duration.ofHours(12), c.convert("12H"));
    assertEquals(Duration.ofDays(7), c.convert("7d"));
    assertEquals(Duration.ofMinutes(90), c.convert("PT1H30M"));
  }
}
