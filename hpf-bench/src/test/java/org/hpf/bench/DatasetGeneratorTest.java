package org.hpf.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hpf.bench.DatasetGenerator.Content;
import org.hpf.bench.DatasetGenerator.Dataset;
import org.hpf.bench.DatasetGenerator.Member;
import org.hpf.bench.DatasetGenerator.SizeDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetGeneratorTest {
  private static DatasetGenerator paper(long seed, Content content) {
    return new DatasetGenerator(seed, 1024, 10 << 20, SizeDistribution.PARETO, 0.9, content);
  }

  @Test
  void sameSeedSameFilesAndSmallerDatasetsArePrefixes(@TempDir Path dir) throws Exception {
    Dataset a = paper(5, Content.MIXED).writeBatches(dir.resolve("a"), 60, 20);
    Dataset b = paper(5, Content.MIXED).writeBatches(dir.resolve("b"), 40, 10);
    assertEquals(a.members().subList(0, 40).stream().map(Member::name).toList(),
        b.members().stream().map(Member::name).toList());
    for (Member m : b.members()) {
      Member same = a.member(m.name());
      assertArrayEquals(Files.readAllBytes(a.fileOf(same)), Files.readAllBytes(b.fileOf(m)));
      assertEquals(m.crc32c(), same.crc32c());
    }
    Dataset other = paper(6, Content.MIXED).writeBatches(dir.resolve("c"), 10, 10);
    assertNotEquals(a.members().subList(0, 10), other.members());
  }

  @Test
  void batchesHoldConsecutiveFiles(@TempDir Path dir) throws Exception {
    Dataset d = paper(1, Content.TEXT).writeBatches(dir, 25, 10);
    assertEquals(25, d.members().size());
    assertEquals(List.of(0, 1, 2), d.members().stream().map(Member::batch).distinct().toList());
    for (int i = 0; i < 25; i++) {
      Member m = d.members().get(i);
      assertEquals(i / 10, m.batch());
      assertTrue(Files.isRegularFile(dir.resolve(DatasetGenerator.batchName(i / 10))
          .resolve(m.name())));
    }
    assertEquals(d.members().stream().mapToLong(Member::size).sum(), d.totalBytes());
    assertEquals(d.members().stream().limit(20).mapToLong(Member::size).sum(), d.bytesOfFirst(20));
  }

  @Test
  void textIsLogLinesAndRandomIsNot(@TempDir Path dir) throws Exception {
    Dataset text = paper(2, Content.TEXT).writeBatches(dir.resolve("t"), 5, 5);
    String first = Files.readString(text.fileOf(text.members().get(0)), StandardCharsets.US_ASCII);
    assertTrue(first.matches("(?s)\\d{13} (INFO|DEBUG|WARN|ERROR) \\[.*"), first);
    Dataset random = paper(2, Content.RANDOM).writeBatches(dir.resolve("r"), 5, 5);
    byte[] bytes = Files.readAllBytes(random.fileOf(random.members().get(0)));
    assertTrue(new String(bytes, StandardCharsets.ISO_8859_1).chars().anyMatch(c -> c > 127));
  }

  @Test
  void paretoSizesAreSkewedSmallWithThePapersMean() {
    DatasetGenerator g = paper(3, Content.TEXT);
    int n = 50_000;
    long sum = 0;
    int[] sizes = new int[n];
    for (int i = 0; i < n; i++) {
      sizes[i] = g.sizeOf(i);
      assertTrue(sizes[i] >= 1024 && sizes[i] <= 10 << 20, "size " + sizes[i]);
      sum += sizes[i];
    }
    java.util.Arrays.sort(sizes);
    double mean = (double) sum / n;
    // Bounded Pareto, alpha 0.9, 1 KiB..10 MiB: mean ~14 KiB, median ~2.2 KiB.
    assertTrue(mean > 10_000 && mean < 20_000, "mean " + mean);
    assertTrue(sizes[n / 2] > 1_900 && sizes[n / 2] < 2_500, "median " + sizes[n / 2]);
  }

  @Test
  void logUniformSpreadsOverTheRange() {
    DatasetGenerator g = new DatasetGenerator(4, 1000, 100_000, SizeDistribution.LOG_UNIFORM, 1,
        Content.TEXT);
    int below = 0;
    for (int i = 0; i < 10_000; i++) {
      if (g.sizeOf(i) < 10_000) {
        below++;
      }
    }
    assertTrue(below > 4_500 && below < 5_500, "half the sizes below the geometric middle: "
        + below);
  }

  @Test
  void badSizesAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> new DatasetGenerator(1, 0, 10,
        SizeDistribution.PARETO, 1, Content.TEXT));
    assertThrows(IllegalArgumentException.class, () -> new DatasetGenerator(1, 10, 5,
        SizeDistribution.PARETO, 1, Content.TEXT));
    assertThrows(IllegalArgumentException.class, () -> new DatasetGenerator(1, 1, 5,
        SizeDistribution.PARETO, 0, Content.TEXT));
  }
}
