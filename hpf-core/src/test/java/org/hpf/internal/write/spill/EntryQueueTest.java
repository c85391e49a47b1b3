package org.hpf.internal.write.spill;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both ways a queue keeps its entries, in memory and in a scratch file past its heap: either way
 * they come back once, in the order added (not sorted), and closing leaves no scratch file.
 */
class EntryQueueTest {
  @TempDir Path tmp;

  private static List<byte[]> entries(int count) {
    SplittableRandom random = new SplittableRandom(count);
    List<byte[]> entries = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      byte[] entry = new byte[random.nextInt(41)];
      random.nextBytes(entry);
      entries.add(entry);
    }
    return entries;
  }

  private void roundTrip(int count, long heldMemory, boolean spills) throws IOException {
    List<byte[]> added = entries(count);
    try (EntryQueue queue = new EntryQueue(Scratch.in(tmp), "test", heldMemory)) {
      for (byte[] entry : added) {
        queue.add(entry);
      }
      assertEquals(spills, queue.spilled());
      assertEquals(count, queue.count());
      Iterator<byte[]> read = queue.read();
      for (byte[] entry : added) {
        assertTrue(read.hasNext());
        assertArrayEquals(entry, read.next());
      }
      assertFalse(read.hasNext());
      assertThrows(IllegalStateException.class, queue::read);
    }
    try (Stream<Path> left = Files.list(tmp)) {
      assertEquals(0, left.count(), "no scratch file left");
    }
  }

  @Test
  void inMemoryInTheOrderAdded() throws IOException {
    roundTrip(500, 1 << 20, false);
  }

  @Test
  void spilledInTheOrderAdded() throws IOException {
    roundTrip(5_000, 4_096, true);
  }

  /**
   * A create's queue holds the paths of its sources: while they are spilled and while they are
   * read back, nothing below the scratch directory is open to group or others, in a parent that
   * everyone may write.
   */
  @Test
  void spilledEntriesAreTheWritersAlone() throws IOException {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path scratch = tmp.resolve("scratch");
    List<String> seen = new ArrayList<>();
    try (EntryQueue queue = new EntryQueue(Scratch.in(scratch), "test", 4_096)) {
      for (byte[] entry : entries(5_000)) {
        queue.add(entry);
      }
      assertTrue(queue.spilled());
      seen.addAll(ScratchExposure.of(scratch));
      Iterator<byte[]> read = queue.read();
      read.next();
      seen.addAll(ScratchExposure.of(scratch));
    }
    assertEquals(List.of(), seen);
  }
}
