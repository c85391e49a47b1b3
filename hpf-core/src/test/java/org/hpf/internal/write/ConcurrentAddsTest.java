package org.hpf.internal.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.read.HpfReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threads that add members at once right after a commit, when the writer has no reader of the
 * new generation yet: each needs one to look its name up, and they must share it. (A writer that
 * let each open its own could close the reader another thread was reading with; the window is
 * narrow, so this exercises the path rather than failing reliably without the fix.)
 */
class ConcurrentAddsTest {
  private static final Configuration CONF = new Configuration();
  private static final int THREADS = 8;

  @TempDir java.nio.file.Path tmp;

  @Test
  void addsRightAfterACommitShareOneReader() throws Exception {
    Path archive = new Path(tmp.resolve("a.hpf").toUri());
    WriterOptions options = WriterOptions.builder().settings(s -> s.threads(2))
        .layout(l -> l.withBucketCapacity(16).withPartSize(4096)).build();
    int rounds = 15;
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try (ArchiveWriter writer = ArchiveWriter.create(CONF, archive, options)) {
      for (int i = 0; i < 200; i++) {
        writer.add("base/" + i, bytes("base " + i), 1L);
      }
      writer.commit();
      for (int round = 0; round < rounds; round++) {
        CyclicBarrier start = new CyclicBarrier(THREADS);
        List<Future<?>> adds = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          String name = "r" + round + "/t" + t;
          adds.add(pool.submit(() -> {
            start.await();
            writer.add(name, bytes(name), 2L);
            return null;
          }));
        }
        for (Future<?> add : adds) {
          add.get(); // an add that read with a reader another thread closed fails here
        }
        writer.commit();
      }
    } finally {
      pool.shutdownNow();
    }
    try (HpfReader reader = HpfReader.open(CONF, archive)) {
      assertEquals(200 + rounds * THREADS, reader.manifest().fileCount());
      assertArrayEquals(bytes("r7/t3"), reader.get("r7/t3"));
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
