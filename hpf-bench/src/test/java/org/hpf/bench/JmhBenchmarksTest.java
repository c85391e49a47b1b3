package org.hpf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hpf.bench.jmh.BucketLookupBench;
import org.hpf.bench.jmh.LocalGetBench;
import org.hpf.bench.jmh.Lz4Bench;
import org.hpf.bench.jmh.NameHashBench;
import org.hpf.bench.jmh.RecordDecodeBench;
import org.junit.jupiter.api.Test;

/**
 * Calls every JMH benchmark's setup and benchmark methods once, without JMH (which stays
 * opt-in: {@code bin/hpf-bench jmh}), so that they keep compiling and working; and checks that
 * JMH's generator listed them.
 */
class JmhBenchmarksTest {
  @Test
  void everyBenchmarkRunsOnce() throws Exception {
    NameHashBench hash = new NameHashBench();
    hash.setup();
    assertTrue(hash.sha256() != null && hash.murmur3() != null);
    assertTrue(!hash.sha256().equals(hash.murmur3()));

    BucketLookupBench lookup = new BucketLookupBench();
    lookup.keys = 1_000;
    lookup.setup();
    for (int i = 0; i < 1_000; i++) {
      long slot = lookup.lookup();
      assertTrue(slot >= 0 && slot < 1_000, "slot " + slot);
    }

    RecordDecodeBench decode = new RecordDecodeBench();
    decode.setup();
    assertEquals(3, decode.recordV1().part());
    assertEquals(3, decode.recordV2().part());
    assertEquals(1_763_000_000_000L, decode.recordV2().mtimeMillis());
    assertEquals(9_876L, decode.entryHeader().originalLength());

    Lz4Bench lz4 = new Lz4Bench();
    lz4.size = 4096;
    lz4.setup();
    assertTrue(lz4.compress() < 4096, "log text compresses");
    assertEquals(4096, lz4.roundTrip());

    LocalGetBench get = new LocalGetBench();
    get.files = 200;
    get.setup();
    try {
      for (int i = 0; i < 50; i++) {
        assertTrue(get.get().length >= 1024);
      }
    } finally {
      get.tearDown();
    }
  }

  @Test
  void jmhListsEveryBenchmark() throws Exception {
    Path list = Path.of(JmhBenchmarksTest.class.getProtectionDomain().getCodeSource()
        .getLocation().toURI()).resolve("../classes/META-INF/BenchmarkList").normalize();
    String benchmarks = Files.readString(list);
    for (String name : new String[] {"NameHashBench", "BucketLookupBench", "RecordDecodeBench",
        "LocalGetBench", "Lz4Bench"}) {
      assertTrue(benchmarks.contains(name), name);
    }
  }
}
