package org.hpf.internal.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.commons.io.FileUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.CorruptArchiveException;
import org.hpf.FileNotInArchiveException;
import org.hpf.internal.format.FileFooter;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.RandomFiles;
import org.hpf.testing.ReadCountingStorage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bucket looked up often enough is read whole once, and later lookups in it read no index;
 * never beyond the reader's index memory, or the memory readers share; damage in a held record
 * is still reported.
 */
class ResidentRecordsTest {
  /** One bucket of this many records: a records section of about 410 KiB. */
  private static final int MEMBERS = 10_000;

  @TempDir static java.nio.file.Path tmp;
  private static TreeMap<String, byte[]> files;
  private static Path archive;
  private static FileSystem fs;
  private ReadCountingStorage storage;

  @BeforeAll
  static void createArchive() throws IOException {
    files = RandomFiles.archive(tmp, "r.hpf", "m", MEMBERS, 64, 11,
        WriterOptions.builder().settings(s -> s.threads(1)).build());
    archive = new Path(tmp.resolve("r.hpf").toUri());
    fs = archive.getFileSystem(new Configuration());
  }

  private HpfReader open(ReaderOptions options) throws IOException {
    storage = new ReadCountingStorage(HdfsIntegration.storage(fs, archive));
    return HpfReader.open(storage, options);
  }

  private void get(HpfReader reader, String name) throws IOException {
    assertArrayEquals(files.get(name), reader.get(name), name);
  }

  @Test
  void aBucketLookedUpOftenIsReadWholeOnceAndThenReadsNothing() throws IOException {
    List<String> names = new ArrayList<>(files.keySet());
    try (HpfReader reader = open(ReaderOptions.defaults())) {
      get(reader, names.get(0));
      long afterFirst = storage.reads("index");
      assertEquals(2, afterFirst, "a first get reads the function and its record, no more");
      assertEquals(0, reader.heldIndexBytes());
      // About 410 KiB of records: the fourth lookup pays for reading them whole, and since
      // that costs more than its own read, it reads its record while they are read beside it.
      for (int get = 1; get < 3; get++) {
        get(reader, names.get(get));
        assertEquals(0, reader.heldIndexBytes(), "gets before the records are held");
      }
      assertEquals(afterFirst + 2, storage.reads("index"));
      get(reader, names.get(3));
      long held = awaitHeld(reader);
      assertEquals(afterFirst + 4, storage.reads("index"), "the fourth lookup's and the records'");
      assertThat(held).isBetween(400_000L, 440_000L);
      long indexReads = storage.reads("index");
      for (String name : names) {
        get(reader, name);
      }
      assertThrows(FileNotInArchiveException.class,
          () -> reader.get("not-a-member"));
      assertEquals(indexReads, storage.reads("index"), "index reads once the records are held");
    }
  }

  @Test
  void anIndexLargerThanTheMemoryIsNeverHeld() throws IOException {
    for (long memory : new long[] {0, 400_000}) {
      try (HpfReader reader = open(ReaderOptions.defaults().withIndexMemoryBytes(memory))) {
        getAll(reader);
        assertEquals(1 + MEMBERS, storage.reads("index"), "memory " + memory);
        assertEquals(0, reader.heldIndexBytes());
      }
    }
  }

  @Test
  void readersSharingAMemoryHoldNoMoreThanIt() throws IOException {
    IndexMemory memory = new IndexMemory(600_000); // one bucket's records, not two
    ReaderOptions shared = ReaderOptions.defaults().withSharedIndexMemory(memory);
    try (HpfReader first = open(shared)) {
      getAll(first);
      assertThat(awaitHeld(first)).isPositive();
      try (HpfReader second = open(shared)) {
        getAll(second);
        assertEquals(0, second.heldIndexBytes(), "no room left for the second reader");
        assertEquals(1 + MEMBERS, storage.reads("index"));
        assertEquals(first.heldIndexBytes(), memory.used());
      }
    }
    assertEquals(0, memory.used(), "closed readers give their memory back");
    try (HpfReader third = open(shared)) {
      getAll(third);
      assertEquals(awaitHeld(third), memory.used());
      assertThat(memory.used()).isPositive();
    }
  }

  /**
   * The bytes of records {@code reader} holds, once a read of them under way (on a thread of its
   * own) has ended; fails if none ends within 10 seconds.
   */
  private static long awaitHeld(HpfReader reader) {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (reader.heldIndexBytes() == 0) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no records held after 10 s");
      }
      Thread.onSpinWait();
    }
    return reader.heldIndexBytes();
  }

  private void getAll(HpfReader reader) throws IOException {
    for (String name : files.keySet()) {
      get(reader, name);
    }
  }

  /**
   * Four threads look up every member: while one of them reads the records whole, the others
   * still read their own records (how many depends on how the threads are scheduled), but far
   * fewer than one read per lookup; once the records are held, no thread reads the index again.
   */
  @Test
  void threadsShareTheHeldRecords() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (HpfReader reader = open(ReaderOptions.defaults())) {
      getAllAtOnce(reader, pool);
      assertThat(awaitHeld(reader)).isPositive();
      long whileHolding = storage.reads("index");
      assertThat(whileHolding).isLessThan(MEMBERS / 2);
      getAllAtOnce(reader, pool);
      assertEquals(whileHolding, storage.reads("index"), "lookups in held records read no index");
    } finally {
      pool.shutdownNow();
    }
  }

  private void getAllAtOnce(HpfReader reader, ExecutorService pool) throws Exception {
    List<Future<?>> gets = new ArrayList<>();
    for (String name : files.keySet()) {
      gets.add(pool.submit(() -> {
        get(reader, name);
        return null;
      }));
    }
    for (Future<?> get : gets) {
      get.get();
    }
  }

  @Test
  void damageInAHeldRecordIsReported(@TempDir java.nio.file.Path copy) throws IOException {
    FileUtils.copyDirectory(tmp.resolve("r.hpf").toFile(), copy.toFile());
    java.nio.file.Path index;
    try (var list = Files.list(copy)) {
      index = list.filter(p -> p.getFileName().toString().startsWith("index-")).findFirst()
          .orElseThrow();
    }
    try (RandomAccessFile file = new RandomAccessFile(index.toFile(), "rw")) {
      long at = file.length() - FileFooter.SIZE - 20; // a record of the last group
      file.seek(at);
      int b = file.read();
      file.seek(at);
      file.write(b ^ 0x10);
    }
    storage = new ReadCountingStorage(HdfsIntegration.storage(fs, new Path(copy.toUri())));
    int corrupt = 0;
    try (HpfReader reader = HpfReader.open(storage, ReaderOptions.defaults())) {
      for (Map.Entry<String, byte[]> e : files.entrySet()) {
        try {
          assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
        } catch (CorruptArchiveException damaged) {
          assertThat(damaged).hasMessageContaining("checksum of records");
          corrupt++;
        }
      }
      assertThat(awaitHeld(reader)).isPositive();
    }
    // The damaged group, at most 32 records, and nothing else.
    assertThat(corrupt).isBetween(1, 32);
  }
}
