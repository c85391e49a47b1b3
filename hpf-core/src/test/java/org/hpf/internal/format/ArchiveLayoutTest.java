package org.hpf.internal.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;
import org.junit.jupiter.api.Test;

/** File names are exactly what docs/FORMAT.md's printf patterns give, for every width. */
class ArchiveLayoutTest {
  private static final long[] VALUES = {0, 1, 7, 9, 10, 99, 123, 99_999, 100_000, 999_999,
      1_000_000, 12_345_678, 999_999_999, 1_000_000_000, 9_999_999_999L, 10_000_000_000L,
      Integer.MAX_VALUE, Long.MAX_VALUE, -1, -12, -99_999, -100_000, -123_456_789,
      Integer.MIN_VALUE, Long.MIN_VALUE};

  @Test
  void zeroPaddingIsTheFormattersForEveryValue() {
    for (int width : new int[] {1, 6, 10}) {
      for (long value : VALUES) {
        assertEquals(String.format(Locale.ROOT, "%0" + width + "d", value),
            ArchiveLayout.zeroPadded(value, width), value + " in " + width);
      }
    }
  }

  @Test
  void namesOfPartsIndexFilesAndGenerations() {
    assertEquals("part-000000", ArchiveLayout.part(0));
    assertEquals("part-001234", ArchiveLayout.part(1234));
    assertEquals("part-1234567", ArchiveLayout.part(1_234_567));
    assertEquals("index-0000000003-000017", ArchiveLayout.index(3, 17));
    assertEquals("index-12345678901-1000000", ArchiveLayout.index(12_345_678_901L, 1_000_000));
    assertEquals("0000000042", Manifest.generationName(42));
    assertEquals("directory-0000000042", ArchiveLayout.directory(42));
  }
}
