package org.hpf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hpf.bench.Results.AccessResult;
import org.hpf.bench.Results.CreationPoint;
import org.hpf.bench.Results.StoreCount;
import org.hpf.bench.Results.ThroughputResult;
import org.hpf.bench.experiments.ExperimentResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The headline says which way each ratio goes and which targets a run met. */
class HeadlineTest {
  @TempDir
  Path dir;

  private static AccessResult gets(String system, String mode, double p50, double p99) {
    return new AccessResult(system, mode, 1000, 10, 1, p50, p50, p99, p50, p50, p99,
        List.of(1.0), List.of(p50), null);
  }

  private static StoreCount store(String system, long objects) {
    return new StoreCount(system, 1000, "/x", objects, 0, 0, objects, 0, 400, 400, 1000);
  }

  private static ThroughputResult ops(String system, String op, int threads, double perSec) {
    return new ThroughputResult(system, op, "hpf-bench", threads, 1000, 1000, 1, perSec, 1);
  }

  private static Results run() {
    Results r = new Results();
    r.config.put("nnThreads", 4);
    r.creation.add(new CreationPoint("HDFS", 1000, 1, 60_000, Map.of()));
    r.creation.add(new CreationPoint("HDFS -put -t 16", 1000, 1, 6_000, Map.of()));
    r.creation.add(new CreationPoint("HPF", 1000, 1, 1_000, Map.of("indexBytesPerFile", 40.0)));
    r.creation.add(new CreationPoint("MapFile", 1000, 1, 500, Map.of()));
    r.access.add(gets("HDFS", "warm", 1000, 5000));
    r.access.add(gets("HPF", "warm", 400, 6000));
    r.access.add(gets("MapFile", "warm", 8000, 20000));
    r.access.add(gets("HDFS", "cold", 4000, 9000));
    r.access.add(gets("HPF", "cold", 5000, 9000));
    r.stores.add(store("HDFS", 2_000_000));
    r.stores.add(store("HPF", 1_000));
    r.stores.add(store("MapFile", 1_000));
    r.throughput.add(ops("HPF", "stat", 4, 5000));
    r.throughput.add(ops("HDFS", "stat", 4, 10000));
    r.throughput.add(ops("HPF", "get", 1, 1000));
    r.throughput.add(ops("HPF", "get", 4, 3000));
    return r;
  }

  @Test
  void eachCellSaysWhichWayTheRatioGoes() {
    String md = Headline.markdown(run(), null);
    assertTrue(md.contains("| | HDFS | HDFS -put -t 16 | MapFile |"), md);
    assertTrue(md.contains("| creation, 1,000 files | 60.0× faster (1.0 s vs 60.0 s) |"
        + " 6.00× faster (1.0 s vs 6.0 s) | **2.00× slower** (1.0 s vs 500 ms) |"), md);
    assertTrue(md.contains("| warm get p50 | 2.50× faster (400 µs vs 1.00 ms) |  |"
        + " 20.0× faster (400 µs vs 8.00 ms) |"), md);
    assertTrue(md.contains("| NameNode objects | 2,000× fewer (1,000 vs 2,000,000) |  |"
        + " the same (1,000) |"), md);
    assertTrue(md.contains("| HPF: stat, 4 threads | **2.00× fewer ops/s** (5,000 vs 10,000)"),
        md);
    assertTrue(md.contains("| HPF | 1,000 | 3,000 |"), "gets over threads: " + md);
    assertFalse(md.contains("| HPF+cache |"), "no row for a reader the run did not measure");
  }

  @Test
  void theTargetsAreMetOrMissedAtTheirBounds() {
    String md = Headline.markdown(run(), null);
    for (String row : List.of(
        "| warm get p50 at most 0.5× HDFS | 0.400 | met |",
        "| warm get p99 no worse than HDFS | 1.20 | **missed** |",
        "| a new client's first get (cold p50) at most 1.25× HDFS | 1.25 | met |",
        "| stat at least as fast as HDFS (ops/s ÷ HDFS's) | 0.500 | **missed** |",
        "| creating 1,000 files at least 50× faster than uploading them one by one | 60.0 | met |",
        "| about 1/1000 of the NameNode objects of plain files | 1/2,000 | met |",
        "| at most 40 bytes of index per file (bytes, not a ratio) | 40.0 | met |",
        "| warm get far faster than MapFile (MapFile's p50 ÷ HPF's, at least 5) | 20.0 | met |")) {
      assertTrue(md.contains(row), row + " in\n" + md);
    }
  }

  @Test
  void aScanBesideTheRunAddsItsRowsAndTargets() throws Exception {
    File json = dir.resolve("scan.json").toFile();
    String point = "{\"panel\":\"scan\",\"series\":\"%s\",\"x\":60,\"label\":\"60 files\","
        + "\"value\":%s,\"reps\":[%s],\"details\":{\"dataNodeBlockReads\":%d,"
        + "\"dataNodeBytesRead\":2048}}";
    Files.writeString(json.toPath(), "{\"suite\":\"scan\",\"points\":["
        + String.format(point, "plain files, TextInputFormat", "30.0", "30.0", 60) + ","
        + String.format(point, "SequenceFile", "2.0", "2.0", 1) + ","
        + String.format(point, "hpf, HpfInputFormat", "2.5", "2.5", 2) + ","
        + String.format(point, "hpf (hpf://), CombineTextInputFormat", "7.6", "7.6", 9)
            .replace("2048", "3000") + "]}",
        StandardCharsets.UTF_8);
    String md = Headline.markdown(run(), ExperimentResult.read(json));
    assertTrue(md.contains("| plain files, TextInputFormat | 30.0 | 60 | 2.00 KiB | 12.0 |"), md);
    assertTrue(md.contains("| scan through HpfInputFormat at least 10× faster than"
        + " TextInputFormat over the plain files | 12.0 | met |"), md);
    assertTrue(md.contains("| scan through HpfInputFormat no slower than the SequenceFile |"
        + " 0.800 | **missed** |"), md);
    assertTrue(md.contains("| CombineTextInputFormat over hpf:// at most 3× HpfInputFormat's"
        + " time | 3.04 | **missed** |"), md);
    assertTrue(md.contains("| CombineTextInputFormat over hpf:// at most 1.5× the bytes"
        + " HpfInputFormat reads (the stored bytes) | 1.46 | met |"), md);
  }

  @Test
  void aRunWithoutHpfHasNoHeadline() {
    Results r = new Results();
    r.creation.add(new CreationPoint("HDFS", 10, 1, 100, Map.of()));
    assertEquals("", Headline.markdown(r, null));
  }
}
