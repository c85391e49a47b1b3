package org.hpf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.hpf.bench.Results.AccessResult;
import org.hpf.bench.Results.CreationPoint;
import org.hpf.bench.Results.StoreCount;
import org.hpf.bench.Results.ThroughputResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every suite at a tiny scale on an embedded MiniDFSCluster (3 DataNodes, replication 3), in one
 * run, so that the bench never rots: creation at two sizes, cold and warm gets, NameNode counts,
 * sizes, throughput (with Hadoop's NNThroughputBenchmark), and the JSON, Markdown and PNG output.
 */
@Tag("hdfs")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SuitesSmokeTest {
  private static final List<String> SYSTEMS = List.of("HDFS", "HAR", "HPF", "MapFile",
      "SequenceFile");

  private Results results;
  private File out;
  private String log;

  @BeforeAll
  void runTheBench(@TempDir Path dir) throws Exception {
    BenchConfig config = new BenchConfig();
    config.files = List.of(100, 200);
    out = dir.resolve("out").toFile();
    config.cluster.out = out;
    config.gets = 6;
    config.reps = 2;
    config.warmup = 3;
    config.coldWarmup = 1;
    config.seqfileGets = 3;
    config.nnFiles = 100;
    config.nnThreads = 2;
    config.maxSize = 256 << 10;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    results = new BenchRun(config, new PrintStream(bytes, true, StandardCharsets.UTF_8)).run();
    log = bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void creationOfEverySystemAtEverySize() {
    for (int n : List.of(100, 200)) {
      for (String system : SYSTEMS) {
        CreationPoint c = results.creationOf(system, n);
        assertNotNull(c, system + " at " + n);
        assertTrue(c.millis() > 0, system);
      }
    }
    // Hadoop's shell uploading the same files in parallel, as a user would; its files are gone.
    CreationPoint put = results.creationOf("HDFS -put -t 16", 200);
    assertNotNull(put, "the shell's parallel upload");
    assertTrue(put.millis() > 0);
    assertEquals(16, put.details().get("threads"));
    // HAR's time includes the upload it archives.
    CreationPoint har = results.creationOf("HAR", 200);
    assertEquals(results.creationOf("HDFS", 200).millis(), har.details().get("uploadMillis"));
    assertTrue(har.millis() >= results.creationOf("HDFS", 200).millis());
    // The upload of 200 files continues that of 100.
    assertTrue(results.creationOf("HDFS", 200).millis()
        >= results.creationOf("HDFS", 100).millis());
    // HPF's index files are pinned and cached (the embedded cluster has locked memory) before
    // the access suite's warm gets.
    Map<String, Object> hpf = results.creationOf("HPF", 200).details();
    assertTrue(((Number) hpf.get("indexBytesPinned")).longValue() > 0, hpf::toString);
    assertEquals(hpf.get("indexBytesPinned"), hpf.get("indexBytesCached"), hpf::toString);
  }

  @Test
  void coldAndWarmGetsOfEverySystem() {
    for (String mode : List.of("cold", "warm")) {
      for (String system : SYSTEMS) {
        AccessResult a = results.accessOf(system, mode);
        assertNotNull(a, system + " " + mode);
        int expected = system.equals("SequenceFile") ? 3 : 12;
        assertEquals(expected, a.samplesMicros().size(), system + " " + mode);
        assertTrue(a.p50Micros() > 0 && a.p50Micros() <= a.p90Micros()
            && a.p90Micros() <= a.p99Micros() && a.p99Micros() <= a.maxMicros(), a.toString());
      }
    }
    // Warm HPF again with a record cache holding every measured name's record.
    assertNull(results.accessOf("HPF+cache", "cold"));
    AccessResult cached = results.accessOf("HPF+cache", "warm");
    assertNotNull(cached);
    assertEquals(12, cached.samplesMicros().size());
    assertTrue(cached.note().contains("timed gets: 12 hits, 0 misses"), cached.note());
  }

  @Test
  void nameNodeObjectsCountedFromTheNameNode() {
    StoreCount hdfs = results.storeOf("HDFS");
    assertEquals(200, hdfs.nnFiles());
    assertTrue(hdfs.blocks() >= 200, "one block per non-empty file");
    for (String system : List.of("HAR", "HPF", "MapFile", "SequenceFile")) {
      StoreCount s = results.storeOf(system);
      assertTrue(s.objects() > 0 && s.objects() < hdfs.objects() / 10, s.toString());
      assertEquals(s.objects() * 200, s.memoryBytes());
    }
    assertEquals(2, results.storeOf("MapFile").nnFiles()); // data + index
  }

  @Test
  void sizesOnDisk() {
    StoreCount hdfs = results.storeOf("HDFS");
    assertEquals(hdfs.originalBytes(), hdfs.logicalBytes());
    assertEquals(3 * hdfs.logicalBytes(), hdfs.spaceConsumed()); // replication 3
    // Log text compresses: HPF (LZ4 per file) and MapFile (zlib blocks) store less.
    assertTrue(results.storeOf("HPF").sizeRatio() < 0.8);
    assertTrue(results.storeOf("MapFile").sizeRatio() < 0.8);
    assertTrue(results.storeOf("HAR").sizeRatio() >= 1.0);
  }

  @Test
  void throughputInNnThroughputBenchmarkShape() {
    Set<String> rows = results.throughput.stream()
        .map(t -> t.system() + " " + t.op() + " " + t.source()).collect(Collectors.toSet());
    for (String row : List.of("HPF get hpf-bench", "HPF stat hpf-bench", "HPF list hpf-bench",
        "HDFS get hpf-bench", "HDFS stat hpf-bench", "HDFS list hpf-bench",
        "HDFS open NNThroughputBenchmark", "HDFS fileStatus NNThroughputBenchmark")) {
      assertTrue(rows.contains(row), row + " in " + rows);
    }
    for (ThroughputResult t : results.throughput) {
      assertTrue(t.operations() >= 100 && t.opsPerSec() > 0, t.toString());
    }
    // Gets at every thread count (--get-threads and --nn-threads), fewest threads first, on one
    // reader with and without the record cache, and from HDFS.
    List<String> gets = results.throughput.stream().filter(t -> t.op().equals("get"))
        .map(t -> t.system() + " x" + t.threads()).toList();
    assertEquals(List.of("HPF x1", "HPF x2", "HPF x4", "HPF x8", "HPF+cache x1", "HPF+cache x2",
        "HPF+cache x4", "HPF+cache x8", "HDFS x1", "HDFS x2", "HDFS x4", "HDFS x8"), gets);
  }

  /** The batch-get row: random names and a directory, each read six ways, same bytes. */
  @Test
  void batchGetsOfRandomNamesAndADirectory() {
    Set<String> rows = new java.util.TreeSet<>();
    for (Results.BatchGetResult b : results.batchGets) {
      assertEquals(2, b.repTotalsMillis().size(), b.toString());
      assertTrue(b.medianMillis() > 0 && b.count() > 0, b.toString());
      rows.add(b.selection().replaceAll(" .*", "") + ": " + b.way());
    }
    Set<String> ways = Set.of("HPF batch", "HPF batch, vectored read", "HPF batch, 2 threads",
        "HPF batch, 8 threads", "HPF one by one", "HDFS files, 8 threads");
    Set<String> expected = new java.util.TreeSet<>();
    for (String way : ways) {
      expected.add("200: " + way);
      expected.add("directory: " + way);
    }
    assertEquals(expected, rows);
    assertTrue(log.contains("batch gets"), log);
  }

  @Test
  void jsonMarkdownAndChartsAreWritten() throws Exception {
    JsonNode json = Results.mapper().readTree(new File(out, "results.json"));
    for (String key : List.of("config", "environment", "dataset", "creation", "access",
        "stores", "throughput")) {
      assertTrue(json.has(key), key);
    }
    assertEquals("3.5.0", json.get("environment").get("hadoop").asText());
    // The load average is sampled from the start, every minute.
    assertTrue(json.get("environment").get("loadAverageLowMedianHigh").asText()
        .matches("[0-9.]+ / [0-9.]+ / [0-9.]+"), json.get("environment").toString());
    assertTrue(json.get("environment").get("loadAverageEveryMinute").size() >= 1);
    assertEquals(20260101, json.get("config").get("seed").asLong());
    String md = Files.readString(new File(out, "report.md").toPath());
    assertTrue(md.contains("| | HDFS | HDFS -put -t 16 | HAR | MapFile | SequenceFile |"), md);
    assertTrue(md.contains("| warm get p50 at most 0.5× HDFS |"), md);
    for (String heading : List.of("## Headline", "Targets:", "## 1. Creation time", "## 2. Random get time",
        "## 3. NameNode objects", "## 4. Size on disk", "## 5. Metadata throughput")) {
      assertTrue(md.contains(heading), heading);
    }
    for (String png : List.of("creation", "access-cold", "access-warm", "namenode", "size",
        "throughput")) {
      byte[] head = Files.readAllBytes(new File(out, png + ".png").toPath());
      assertTrue(head.length > 1000 && head[1] == 'P' && head[2] == 'N' && head[3] == 'G', png);
    }
    assertTrue(log.contains("suite 5: metadata throughput"), log);
    // `hpf-bench report` renders the same report from the JSON alone.
    File again = new File(out, "again");
    assertEquals(0, BenchCommand.execute(new String[] {"report", new File(out, "results.json")
        .getPath(), "-o", again.getPath()}, System.out, System.err));
    assertEquals(md, Files.readString(new File(again, "report.md").toPath()));
    assertTrue(new File(again, "access-cold.png").length() > 1000);
    assertTrue(!new File(out, "work").exists(), "scratch space removed");
  }
}
