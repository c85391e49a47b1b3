package org.hpf.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader thread interrupted mid-read (as Spark interrupts the tasks it cancels): on the local
 * file system the interrupt closes the channel of the part file the archive's reader shares. It
 * must fail that read only; every later read of the part through the same file system instance
 * reads on.
 */
class InterruptedReadTest {
  @TempDir java.nio.file.Path tmp;

  @Test
  void anInterruptFailsOnlyTheInterruptedRead() throws Exception {
    java.nio.file.Path src = tmp.resolve("src");
    Files.createDirectories(src);
    Random random = new Random(5);
    byte[] big = new byte[24 << 20];
    random.nextBytes(big);
    byte[] small = new byte[1000];
    random.nextBytes(small);
    Files.write(src.resolve("big.bin"), big);
    Files.write(src.resolve("small.bin"), small); // in the same part
    Path archive = new Path(tmp.resolve("i.hpf").toUri());
    ArchiveCreator.create(new Configuration(), archive, List.of(new Path(src.toUri())),
        WriterOptions.builder().threads(1).build());
    String base = "hpf://file-" + archive.toUri().getPath();
    Configuration conf = new Configuration();
    conf.setBoolean("fs.hpf.impl.disable.cache", true);
    try (FileSystem fs = new Path(base).getFileSystem(conf)) {
      CountDownLatch reading = new CountDownLatch(1);
      AtomicReference<Throwable> failure = new AtomicReference<>();
      Thread task = new Thread(() -> {
        byte[] buffer = new byte[1 << 20];
        try (FSDataInputStream in = fs.open(new Path(base + "/big.bin"))) {
          for (long i = 0; ; i++) {
            in.readFully((i * 7 % 23) << 20, buffer, 0, buffer.length);
            reading.countDown();
          }
        } catch (Throwable t) {
          failure.set(t);
        }
      });
      task.start();
      assertTrue(reading.await(30, TimeUnit.SECONDS), "the task never read");
      task.interrupt();
      task.join(30_000);
      try (FSDataInputStream in = fs.open(new Path(base + "/small.bin"))) {
        byte[] read = new byte[small.length];
        IOUtils.readFully(in, read, 0, read.length);
        assertArrayEquals(small, read);
      }
      try (FSDataInputStream in = fs.open(new Path(base + "/big.bin"))) {
        byte[] read = new byte[big.length];
        IOUtils.readFully(in, read, 0, read.length);
        assertArrayEquals(big, read);
      }
      assertTrue(failure.get() instanceof InterruptedIOException,
          "the interrupted read failed with " + failure.get());
    }
  }
}
