package org.hpf.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.RandomFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader thread interrupted mid-read (as Spark cancels a task) fails only its own read: the
 * part stays readable for every other reader of the same cached file system instance. On the
 * local file system an interrupt closes the channel a positioned read goes through.
 */
class InterruptedReadTest {
  @TempDir Path tmp;

  @Test
  void anInterruptedReadLeavesThePartReadableForOthers() throws Exception {
    TreeMap<String, byte[]> members = RandomFiles.archive(tmp, "a.hpf", "f", 12, 3 << 20, 5,
        WriterOptions.builder().settings(s -> s.threads(1)).build());
    Configuration conf = new Configuration();
    conf.setBoolean("fs.hpf.impl.disable.cache", true);
    String base = "hpf://file-" + tmp.resolve("a.hpf").toAbsolutePath();
    try (FileSystem fs = new org.apache.hadoop.fs.Path(base).getFileSystem(conf)) {
      for (int round = 0; round < 5; round++) {
        String context = "round " + round;
        AtomicReference<Throwable> bystander = new AtomicReference<>();
        Thread during = new Thread(() -> {
          try {
            readAll(fs, base, members, context + ", while another reader is interrupted");
          } catch (Throwable e) {
            bystander.set(e);
          }
        });
        during.start();
        interruptReaderMidRead(fs, base, members);
        during.join();
        if (bystander.get() != null) {
          throw new AssertionError(context + ": a reader beside the interrupted one failed",
              bystander.get());
        }
        readAll(fs, base, members, context + ", after another reader's interrupt");
      }
    }
  }

  private static void readAll(FileSystem fs, String base, Map<String, byte[]> members,
      String context) throws IOException {
    for (Map.Entry<String, byte[]> member : members.entrySet()) {
      try (InputStream in = fs.open(new org.apache.hadoop.fs.Path(base + "/"
          + member.getKey()))) {
        assertArrayEquals(member.getValue(), in.readAllBytes(), context + ": " + member.getKey());
      }
    }
  }

  /** Starts a thread reading every member over and over, and interrupts it mid-read. */
  private static void interruptReaderMidRead(FileSystem fs, String base,
      Map<String, byte[]> members) throws InterruptedException {
    CountDownLatch reading = new CountDownLatch(1);
    AtomicReference<Throwable> outcome = new AtomicReference<>();
    Thread reader = new Thread(() -> {
      try {
        while (true) {
          for (String name : members.keySet()) {
            try (InputStream in = fs.open(new org.apache.hadoop.fs.Path(base + "/" + name))) {
              byte[] buffer = new byte[4096];
              while (in.read(buffer) >= 0) {
                reading.countDown();
              }
            }
          }
        }
      } catch (Throwable e) {
        outcome.set(e);
      }
    });
    reader.start();
    reading.await();
    reader.interrupt();
    reader.join(30_000);
    assertTrue(outcome.get() instanceof InterruptedIOException,
        "the interrupted read failed with " + outcome.get());
  }
}
