package org.hpf.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hpf.bench.BenchCommand;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scale suite at a tiny scale, so it never rots: two local sizes and one on an embedded
 * cluster, each in a child JVM with a 256 MiB heap, plus the other systems at a tiny size; then
 * the JSON, Markdown and charts.
 */
@Tag("hdfs")
class ScaleSmokeTest {
  @TempDir Path dir;

  @Test
  void measuresEverySizeInASmallHeap() throws Exception {
    File out = dir.resolve("out").toFile();
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    int code = BenchCommand.execute(new String[] {"scale", "--sizes", "1500,4000",
        "--hdfs-sizes", "1500", "--compare", "100", "--compare-gets", "4", "--compare-reps", "1",
        "--gets", "300", "--cold-gets", "5", "--datanodes", "1", "--replication", "1",
        "--out", out.getPath()}, new PrintStream(log, true, StandardCharsets.UTF_8), System.err);
    assertEquals(0, code, () -> log.toString(StandardCharsets.UTF_8));

    ScaleResults results = ScaleResults.read(new File(out, "scale.json"));
    assertEquals(List.of("local 1500", "local 4000", "hdfs 1500"), results.points.stream()
        .map(p -> p.get("where") + " " + p.get("files")).toList());
    for (Map<String, Object> p : results.points) {
      double maxHeap = ScaleResults.number(p, "maxHeapBytes");
      assertTrue(maxHeap <= 300 << 20, "each build runs in its own small heap: " + maxHeap);
      for (String phase : List.of("create", "append", "verify", "list")) {
        double live = ScaleResults.number(p, phase + "LiveHeapBytes");
        assertTrue(live > 0 && live < maxHeap, phase + " live heap " + live);
      }
      assertTrue(ScaleResults.number(p, "filesPerSecond") > 0, p::toString);
      assertTrue(ScaleResults.number(p, "indexBytesPerFile") >= 40, "40-byte records");
      assertTrue(ScaleResults.number(p, "listNamesPerSecond") > 0, p::toString);
      for (String mode : List.of("warm", "cold")) {
        double p50 = ScaleResults.number(p, mode + "GetP50Micros");
        assertTrue(p50 > 0 && p50 <= ScaleResults.number(p, mode + "GetP99Micros"),
            mode + " gets of " + p);
      }
      assertEquals(300.0, ScaleResults.number(p, "warmGets"));
      assertEquals(1000.0, ScaleResults.number(p, "appendedFiles"));
    }
    assertTrue(results.comparisons.stream().anyMatch(c -> c.system().equals("HAR")
        && c.mode().equals("cold") && c.files() == 100 && c.p50Micros() > 0),
        results.comparisons::toString);
    assertTrue(results.comparisons.stream().anyMatch(c -> c.system().equals("MapFile")));

    String md = Files.readString(new File(out, "scale.md").toPath());
    assertTrue(md.contains("| local | 4,000 |") && md.contains("| hdfs | 1,500 |")
        && md.contains("| HAR | 100 | warm |"), md);
    for (String chart : List.of("get-latency-vs-size-p50.png", "get-latency-vs-size-p99.png",
        "gc-local-4000.log")) {
      assertTrue(new File(out, chart).length() > 0, chart);
    }
    assertTrue(!new File(out, "work").exists(), "scratch space removed");
  }
}
