package org.hpf.internal.write.spill;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both ways a sorter sorts: in memory while its entries fit the heap it may use, and through
 * scratch files once they do not. Either way the entries come out in the sorter's order (here
 * the reverse of the bytes', so that the order is the one given, not a default) with duplicates
 * kept, and closing leaves no scratch file.
 */
class ExternalSorterTest {
  @TempDir Path tmp;

  /** Descending, by unsigned bytes. */
  private static int descending(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    return Arrays.compareUnsigned(b, bOff, bOff + bLen, a, aOff, aOff + aLen);
  }

  /** {@code count} entries of 0 to 40 random bytes, every tenth one twice. */
  private static List<byte[]> entries(int count) {
    SplittableRandom random = new SplittableRandom(count);
    List<byte[]> entries = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      byte[] entry = new byte[random.nextInt(41)];
      random.nextBytes(entry);
      entries.add(entry);
      if (i % 10 == 0) {
        entries.add(entry.clone());
      }
    }
    return entries;
  }

  /** Adds the entries, each inside a larger array. */
  private static void add(ExternalSorter sorter, List<byte[]> entries) throws IOException {
    for (byte[] e : entries) {
      byte[] padded = new byte[e.length + 3];
      System.arraycopy(e, 0, padded, 2, e.length);
      sorter.add(padded, 2, e.length);
    }
  }

  private static List<byte[]> sort(ExternalSorter sorter) throws IOException {
    List<byte[]> out = new ArrayList<>();
    try (ExternalSorter.Sorted sorted = sorter.sort()) {
      sorted.forEachRemaining(out::add);
      assertFalse(sorted.hasNext());
      assertThrows(NoSuchElementException.class, sorted::next);
    }
    return out;
  }

  private static void assertSorted(List<byte[]> entries, List<byte[]> sorted) {
    List<byte[]> expected = new ArrayList<>(entries);
    expected.sort((a, b) -> descending(a, 0, a.length, b, 0, b.length));
    assertEquals(expected.size(), sorted.size());
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i), sorted.get(i), "entry " + i);
    }
  }

  private long scratchFiles() throws IOException {
    try (Stream<Path> files = Files.walk(tmp.resolve("scratch"))) {
      return files.filter(Files::isRegularFile).count();
    }
  }

  @Test
  void entriesThatFitTheHeapAreSortedInMemory() throws IOException {
    List<byte[]> entries = entries(2_000);
    try (ExternalSorter sorter = new ExternalSorter(Scratch.in(tmp.resolve("scratch")), "test",
        ExternalSorterTest::descending)) {
      add(sorter, entries);
      List<byte[]> sorted = sort(sorter);
      assertFalse(sorter.spilled());
      assertEquals(0, scratchFiles());
      assertEquals(entries.size(), sorter.count());
      assertEquals(entries.stream().mapToLong(e -> e.length).sum(), sorter.bytes());
      assertSorted(entries, sorted);
    }
  }

  @Test
  void entriesBeyondTheHeapSpillToScratchFiles() throws IOException {
    List<byte[]> entries = entries(20_000);
    ExternalSorter sorter = new ExternalSorter(Scratch.in(tmp.resolve("scratch")), "test",
        ExternalSorterTest::descending, 64 << 10);
    try (sorter) {
      add(sorter, entries);
      assertTrue(sorter.spilled());
      assertTrue(scratchFiles() > 0, "the entries went to scratch files");
      List<byte[]> sorted = sort(sorter);
      assertSorted(entries, sorted);
    }
    assertEquals(0, scratchFiles(), "closing removes the scratch files");
  }

  /**
   * Spilled entries are member names: while a sorter spills and while its runs are read back,
   * no directory or file below the scratch directory has a bit for group or others, whatever
   * the umask and however open the scratch directory's parent is.
   */
  @Test
  void scratchFilesAreTheWritersAloneWhileTheyExist() throws IOException {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path scratch = tmp.resolve("scratch");
    List<String> seen = new ArrayList<>();
    try (ExternalSorter sorter = new ExternalSorter(Scratch.in(scratch), "test",
        ExternalSorterTest::descending, 64 << 10)) {
      add(sorter, entries(20_000));
      assertTrue(sorter.spilled());
      seen.addAll(ScratchExposure.of(scratch));
      try (ExternalSorter.Sorted sorted = sorter.sort()) {
        sorted.next();
        assertTrue(scratchFiles() > 0, "the runs are being read");
        seen.addAll(ScratchExposure.of(scratch));
      }
    }
    assertEquals(List.of(), seen);
  }

  @Test
  void noEntriesSortToNone() throws IOException {
    try (ExternalSorter sorter = new ExternalSorter(Scratch.in(tmp.resolve("scratch")), "test",
        ExternalSorterTest::descending)) {
      assertEquals(List.of(), sort(sorter));
      assertThrows(IllegalStateException.class,
          () -> sorter.add("late".getBytes(StandardCharsets.UTF_8)));
    }
  }
}
