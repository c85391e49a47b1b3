package org.hpf.bench.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.hpf.bench.BenchCommand;
import org.hpf.bench.Results;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The MapReduce comparison at a tiny scale on an embedded cluster, so it never rots. */
@Tag("hdfs")
class MapReduceSmokeTest {
  @TempDir Path dir;

  @Test
  @SuppressWarnings("unchecked")
  void comparesBothJobsAndRemovesTheSources() throws Exception {
    File out = dir.resolve("out").toFile();
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    int code = BenchCommand.execute(new String[] {"mapreduce", "--files", "400", "--batch",
        "100", "--gets", "50", "--cold-gets", "3", "--datanodes", "1", "--replication", "1",
        "--out", out.getPath()}, new PrintStream(log, true, StandardCharsets.UTF_8), System.err);
    assertEquals(0, code, () -> log.toString(StandardCharsets.UTF_8));

    Map<String, Object> results = Results.mapper().readValue(
        new File(out, "mapreduce.json"), Map.class);
    Map<String, Object> plain = (Map<String, Object>) results.get("plain");
    // 400 files, 4 batch directories and the root; one block per file.
    assertEquals(405 + 400, ((Number) plain.get("files")).longValue()
        + ((Number) plain.get("directories")).longValue()
        + ((Number) plain.get("blocks")).longValue());
    for (String system : new String[] {"har", "hpf"}) {
      Map<String, Object> archive = (Map<String, Object>) results.get(system);
      assertTrue(((Number) archive.get("namenodeObjects")).longValue() < 100, system);
      assertTrue(((Number) archive.get("warmP50Micros")).longValue() > 0, system);
      assertTrue(((Number) archive.get("totalMillis")).longValue() > 0, system);
    }
    Map<String, Object> hpf = (Map<String, Object>) results.get("hpf");
    assertEquals(400, ((Number) hpf.get("removedFiles")).longValue());
    assertEquals(1, ((Number) hpf.get("sourceObjectsLeft")).longValue(), "the root is left");
    String md = Files.readString(out.toPath().resolve("mapreduce.md"));
    assertTrue(md.contains("| job time (s) |"), md);
  }
}
