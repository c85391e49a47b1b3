package org.hpf.bench.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hpf.bench.BenchCommand;
import org.hpf.bench.Results;
import org.hpf.bench.experiments.ExperimentResult.Point;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every experiment at a tiny scale (MiBs, 2 repetitions), sharing one embedded cluster of 3
 * DataNodes (the DataNode sweep starts its own 1- and 2-DataNode clusters), and what each
 * wrote: rows, the DataNodes' bytes at each replication, the HPF line, the model's numbers
 * against the counts, non-empty charts.
 */
@Tag("hdfs")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExperimentsSmokeTest {
  private static final long BLOCK = 256 << 10;

  private final Map<String, ExperimentResult> results = new LinkedHashMap<>();
  private File out;
  private ExperimentContext context;

  @BeforeAll
  void runEveryExperiment(@TempDir Path dir) throws Exception {
    ExperimentOptions options = new ExperimentOptions();
    options.cluster.out = dir.resolve("out").toFile();
    options.reps = 2;
    out = options.cluster.out;
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    context = new ExperimentContext(options, new PrintStream(log, true, StandardCharsets.UTF_8));

    SizeSuite size = new SizeSuite();
    size.sizesMiB = List.of(1, 2);
    size.blockSize = BLOCK;
    FileSizeSuite fileSize = new FileSizeSuite();
    fileSize.layout.totalsMiB = List.of(2);
    fileSize.layout.blockSize = BLOCK;
    NameNodeModelSuite model = new NameNodeModelSuite();
    model.layout.totalsMiB = List.of(2);
    model.layout.blockSize = BLOCK;
    BlockSizeSuite blockSize = new BlockSizeSuite();
    blockSize.blockSizesKiB = List.of(64, 256);
    blockSize.sizeMiB = 1;
    ClientsSuite clients = new ClientsSuite();
    clients.clients = List.of(1, 2);
    clients.perClientMiB = 1;
    ReplicationSuite replication = new ReplicationSuite();
    replication.sizesMiB = List.of(1, 2);
    replication.factors = List.of((short) 1, (short) 3);
    DataNodeSuite dataNodes = new DataNodeSuite();
    dataNodes.counts = List.of(1, 2);
    dataNodes.totalMiB = 2;
    dataNodes.fileMiB = 1;
    OwnersSuite owners = new OwnersSuite();
    owners.files = 300;
    owners.fileBytes = 64;
    ScanSuite scan = new ScanSuite();
    scan.files = 60;
    scan.minSize = 100;
    scan.maxSize = 2000;
    scan.splitMiB = 1;
    scan.filesPerJob = 25; // directories of 25: TextInputFormat reads them in 3 jobs
    OpenOrderSuite openOrder = new OpenOrderSuite();
    openOrder.files = 60;
    openOrder.minSize = 100;
    openOrder.maxSize = 2000;
    WarmTailSuite warmTail = new WarmTailSuite();
    warmTail.files = 300;
    warmTail.plainFiles = 60;
    warmTail.gets = 50;
    warmTail.warmup = 5;
    for (Experiment e : List.of(size, fileSize, model, blockSize, clients, replication, owners,
        scan, openOrder, warmTail, dataNodes)) {
      e.options = options;
      results.put(e.name(), e.runAndWrite(context));
    }
  }

  @AfterAll
  void stop() throws Exception {
    if (context != null) {
      context.close();
    }
  }

  @Test
  void everyExperimentWritesJsonMarkdownAndChart() throws Exception {
    assertEquals(List.of("size", "file-size", "namenode-model", "block-size", "clients",
        "replication", "owners", "scan", "open-order", "warm-tail", "datanodes"),
        List.copyOf(results.keySet()));
    for (String suite : results.keySet()) {
      JsonNode json = Results.mapper().readTree(new File(out, suite + ".json"));
      assertEquals(suite, json.get("suite").asText());
      assertEquals(results.get(suite).points.size(), json.get("points").size(), suite);
      assertTrue(json.get("environment").has("loadAverageAtEnd"), suite);
      String md = Files.readString(new File(out, suite + ".md").toPath());
      assertTrue(md.contains("| "), suite);
      assertFalse(md.contains("seed 00"), suite + ": the studies are cited by name");
      File png = new File(out, suite + ".png");
      assertTrue(png.length() > 1000, suite + ".png");
      assertEquals((byte) 0x89, Files.readAllBytes(png.toPath())[0], suite + ".png is a PNG");
    }
  }

  @Test
  void anArchivePerOwnerCostsAFewObjectsPerOwnerNotPerFile() {
    ExperimentResult r = results.get("owners");
    double plain = r.point("NameNode objects", "plain files", 300).value();
    double one = r.point("NameNode objects", "one archive (the owners lose access)", 300)
        .value();
    double split = r.point("NameNode objects", "one archive per owner (--split-by-owner)", 300)
        .value();
    // 300 files, a block each, in 3 homes of one directory each
    assertEquals(300 + 300 + 3 + 3 + 1, plain);
    assertTrue(one < split && split < 3 * one + 2, one + " then " + split);
    assertTrue(split * 10 < plain, split + " of " + plain);
  }

  @Test
  void everyScanReadsTheSameLinesAndBytes() {
    ExperimentResult r = results.get("scan");
    List<Point> scans = r.points.stream().filter(p -> p.panel().equals("scan")).toList();
    assertEquals(7, scans.size(), scans.toString());
    Object lines = scans.get(0).details().get("lines");
    Object bytes = scans.get(0).details().get("bytes");
    assertTrue(((Number) bytes).longValue() > 60 * 100 / 2, bytes.toString());
    for (Point scan : scans) {
      assertEquals(lines, scan.details().get("lines"), scan.series());
      assertEquals(bytes, scan.details().get("bytes"), scan.series());
      assertTrue(scan.value() > 0, scan.series());
    }
    assertEquals(60, ((Number) r.point("scan", "plain files, TextInputFormat", 60).details()
        .get("maps")).intValue(), "a task per plain file");
    assertEquals(3, ((Number) r.point("scan", "plain files, TextInputFormat", 60).details()
        .get("jobs")).intValue(), "60 files in jobs of at most 25, by directory");
    assertEquals(1, ((Number) r.point("scan", "hpf, HpfInputFormat", 60).details()
        .get("jobs")).intValue());
    long plainReads = ((Number) r.point("scan", "plain files, TextInputFormat", 60).details()
        .get("dataNodeBlockReads")).longValue();
    long hpfReads = ((Number) r.point("scan", "hpf, HpfInputFormat", 60).details()
        .get("dataNodeBlockReads")).longValue();
    assertTrue(hpfReads * 4 < plainReads, hpfReads + " block reads, against " + plainReads
        + " for the plain files");
    assertEquals(0L, ((Number) r.point("scan", "local files (file://), CombineTextInputFormat",
        60).details().get("dataNodeBlockReads")).longValue(), "the floor reads no DataNode");
  }

  @Test
  void everyOpenOrderServesEveryMemberAndCountsItsReads() {
    ExperimentResult r = results.get("open-order");
    List<Point> orders = r.series("open", "part order");
    assertEquals(1, orders.size());
    Object served = orders.get(0).details().get("bytesServed");
    for (String order : List.of("part order", "shuffled", "largest first")) {
      Map<String, Object> details = r.point("open", order, 60).details();
      assertEquals(60, ((Number) details.get("members")).intValue(), order);
      assertEquals(served, details.get("bytesServed"), order);
      assertTrue(((Number) details.get("dataNodeBlockReads")).longValue() > 0, order);
      double client = ((Number) details.get("clientBytesPerStoredByte")).doubleValue();
      assertTrue(client > 0.5 && client <= 1.5, order + ": " + client);
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void everyWarmGetIsTimedAndGivenOneCause() {
    ExperimentResult r = results.get("warm-tail");
    for (String system : List.of("HPF", "HDFS")) {
      Point p = r.point("p99", system, 300);
      assertEquals(2, p.reps().size(), system);
      assertEquals(100, ((Number) p.details().get("gets")).intValue(), system);
      Map<String, Object> causes = (Map<String, Object>) p.details().get("everyGetByCause");
      assertEquals(100, causes.values().stream().mapToInt(n -> ((Number) n).intValue()).sum(),
          system + ": " + causes);
      assertTrue(((Number) p.details().get("p99Micros")).doubleValue()
          >= ((Number) p.details().get("p50Micros")).doubleValue(), system);
    }
  }

  @Test
  void sizeHasAWriteAndAReadPerSizeWithEveryRepetition() {
    ExperimentResult r = results.get("size");
    for (String panel : List.of("write", "read")) {
      List<Point> points = r.series(panel, "one file");
      assertEquals(List.of(1.0, 2.0), points.stream().map(Point::x).toList());
      points.forEach(p -> assertEquals(2, p.reps().size()));
      points.forEach(p -> assertTrue(p.value() > 0));
    }
    assertTrue(r.comparisons.stream().anyMatch(c -> c.published() != null));
  }

  @Test
  void dataNodesWriteReplicationTimesTheBytes() {
    ExperimentResult r = results.get("replication");
    for (short factor : List.of((short) 1, (short) 3)) {
      for (Point p : r.series("write", "replication " + factor)) {
        double perByte = (Double) p.details().get("writtenPerByte");
        assertEquals(factor, perByte, 0.05 * factor, "factor " + factor + " at " + p.label());
      }
    }
  }

  @Test
  void fileSizeHasFourLinesIncludingHpf() {
    ExperimentResult r = results.get("file-size");
    List<String> series = ExperimentReport.seriesOf(r, "write");
    assertEquals(4, series.size(), series.toString());
    assertTrue(series.get(3).startsWith("HPF archive"), series.toString());
    // 2 MiB as files of 0.8 x 256 KiB and of a tenth of that.
    assertEquals(10L, r.point("write", series.get(1), 2).details().get("files"));
    assertEquals(100L, r.point("write", series.get(2), 2).details().get("files"));
    assertNotNull(r.point("read", series.get(3), 2));
    assertTrue(r.comparisons.stream().anyMatch(c -> c.quantity().contains("HPF")));
  }

  @Test
  void modelNumbersFollowTheCounts() {
    ExperimentResult r = results.get("namenode-model");
    for (Point ram : r.points.stream().filter(p -> p.panel().startsWith("RAM")).toList()) {
      long files = (Long) ram.details().get("files");
      long blocks = (Long) ram.details().get("blocks");
      assertEquals((files + blocks) * 200.0, ram.value(), 1e-6, ram.series());
      Point sc = r.point("SC <= F lambda r blockSize", ram.series(), ram.x());
      assertEquals(blocks * 3.0 * BLOCK, sc.value(), 1e-3, ram.series());
    }
    List<String> series = ExperimentReport.seriesOf(r, "RAM >= F(1+lambda)objSize");
    Point plain = r.point("RAM >= F(1+lambda)objSize", series.get(2), 2);
    Point hpf = r.point("RAM >= F(1+lambda)objSize", series.get(3), 2);
    assertEquals(100L, plain.details().get("files"));
    assertEquals(1.0, (Double) plain.details().get("lambda"), 1e-9);
    assertTrue(hpf.value() < plain.value() / 5, hpf.value() + " vs " + plain.value());
    // The one 2 MiB file: 8 blocks of 256 KiB.
    assertEquals(8L, r.point("RAM >= F(1+lambda)objSize", series.get(0), 2).details()
        .get("blocks"));
  }

  @Test
  void sweepsHaveAPointPerSetting() {
    assertEquals(2, results.get("block-size").series("write", "one file of 1 MiB").size());
    assertEquals(List.of(1.0, 2.0), results.get("clients").series("read", "all clients' read")
        .stream().map(Point::x).toList());
    ExperimentResult dn = results.get("datanodes");
    assertEquals(List.of(1.0, 2.0), dn.series("write", "2 MiB in files of 1 MiB").stream()
        .map(Point::x).toList());
    assertTrue(dn.notes.stream().anyMatch(n -> n.contains("not meaningful in absolute")));
  }

  @Test
  void reportRendersTheMarkdownAndChartAgainFromJson(@TempDir Path again) throws Exception {
    int code = BenchCommand.execute(new String[] {"exp", "report",
        new File(out, "replication.json").getPath(), "--out", again.toString()},
        new PrintStream(new ByteArrayOutputStream()), System.err);
    assertEquals(0, code);
    assertEquals(Files.readString(new File(out, "replication.md").toPath()),
        Files.readString(again.resolve("replication.md")));
    assertTrue(again.resolve("replication.png").toFile().length() > 1000);
  }

  @Test
  void badOptionsAreUsageErrors() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = BenchCommand.execute(new String[] {"exp", "size", "--reps", "0"},
        new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
    assertEquals(2, code, err.toString(StandardCharsets.UTF_8));
  }
}
