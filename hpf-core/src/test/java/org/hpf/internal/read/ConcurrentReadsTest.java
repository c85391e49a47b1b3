package org.hpf.internal.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ForwardingStorage;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.RandomFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many threads reading one reader from cold: buckets and parts load in parallel, each file is
 * opened once, and every get returns its member's bytes.
 */
class ConcurrentReadsTest {
  private static final int THREADS = 8;

  @TempDir java.nio.file.Path tmp;

  @Test
  void differentBucketsLoadInParallelAndEachFileOpensOnce() throws Exception {
    TreeMap<String, byte[]> files = RandomFiles.archive(tmp, "c.hpf", "f", 1500, 300, 3,
        WriterOptions.builder().settings(s -> s.threads(2)).layout(l -> l.withBucketCapacity(64)
            .withPartSize(64 << 10)).build());
    Configuration conf = new Configuration();
    Path archive = new Path(tmp.resolve("c.hpf").toUri());

    FileSystem fs = archive.getFileSystem(conf);
    Map<String, AtomicInteger> opens = new ConcurrentHashMap<>();
    // The first two index files opened must be open at the same time: with loads serialized,
    // the first one waits here alone until the timeout.
    CountDownLatch twoIndexLoads = new CountDownLatch(2);
    AtomicBoolean waitedAlone = new AtomicBoolean();
    var storage = new ForwardingStorage(HdfsIntegration.storage(fs, archive)) {
      @Override
      public ArchiveInput open(String name) throws IOException {
        opens.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
        if (name.startsWith("index-")) {
          twoIndexLoads.countDown();
          try {
            if (!twoIndexLoads.await(10, TimeUnit.SECONDS)) {
              waitedAlone.set(true);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        return super.open(name);
      }
    };

    int buckets;
    int parts;
    try (HpfReader reader = HpfReader.open(storage, ReaderOptions.defaults())) {
      buckets = reader.directory().buckets().size();
      parts = reader.manifest().parts().size();
      assertTrue(buckets >= 16 && parts >= 3, buckets + " buckets, " + parts + " parts");
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      try {
        List<Future<Integer>> results = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          List<String> names = new ArrayList<>(files.keySet());
          Collections.shuffle(names, new Random(t));
          results.add(pool.submit(() -> {
            for (String name : names) {
              assertArrayEquals(files.get(name), reader.get(name), name);
            }
            return names.size();
          }));
        }
        for (Future<Integer> result : results) {
          assertEquals(files.size(), result.get(2, TimeUnit.MINUTES));
        }
      } finally {
        pool.shutdownNow();
      }
    }
    assertTrue(!waitedAlone.get(), "the first index file loaded alone: loads are serialized");
    long indexFiles = opens.keySet().stream().filter(n -> n.startsWith("index-")).count();
    long partFiles = opens.keySet().stream().filter(n -> n.startsWith("part-")).count();
    assertEquals(buckets, indexFiles);
    assertEquals(parts, partFiles);
    opens.forEach((name, count) -> assertEquals(1, count.get(), name + " opened " + count));
  }
}
