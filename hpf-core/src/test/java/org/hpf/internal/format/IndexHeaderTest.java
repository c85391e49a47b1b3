package org.hpf.internal.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.hpf.CorruptArchiveException;
import org.junit.jupiter.api.Test;

/** The index header (15 bytes, 18 from version 3 on) and the offsets derived from it. */
class IndexHeaderTest {

  @Test
  void layoutAndOffsets() throws Exception {
    IndexHeader header = new IndexHeader(1000, 5, 0x17, 1, 777, 2);
    ByteBuffer buf = ByteBuffer.allocate(IndexHeader.SIZE_V2);
    header.writeTo(buf);
    assertEquals(IndexHeader.SIZE_V2, buf.position());
    assertEquals("000003E8" + "05" + "00000017" + "28" + "01" + "00000309",
        HexFormat.of().formatHex(buf.array()).toUpperCase(java.util.Locale.ROOT));
    assertEquals(24 + 15 + 777 + 4, header.recordsOffset());
    // Version 2: 1,000 records in 32 groups of up to 32, each followed by a 4-byte checksum.
    assertEquals(2, header.version());
    assertEquals(24 + 15 + 777 + 4 + 1000 * 40 + 32 * 4 + 8, header.fileLength());
    buf.flip();
    assertEquals(header, IndexHeader.read(buf, "i", 2));
    // Version 3: AccessWidth and CommonAccess follow; each record gets its width in ids.
    for (int width = 0; width <= 2; width++) {
      IndexHeader v3 = new IndexHeader(1000, 5, 0x17, 1, 777, width, width == 0 ? 0xABCD : 0);
      assertEquals(3, v3.version());
      ByteBuffer b3 = ByteBuffer.allocate(IndexHeader.SIZE);
      v3.writeTo(b3);
      assertEquals("000003E8" + "05" + "00000017" + "28" + "01" + "00000309" + "0" + width
          + (width == 0 ? "ABCD" : "0000"),
          HexFormat.of().formatHex(b3.array()).toUpperCase(java.util.Locale.ROOT));
      assertEquals(24 + 18 + 777 + 4, v3.recordsOffset());
      assertEquals(24 + 18 + 777 + 4 + 1000 * (40 + width) + 32 * 4 + 8, v3.fileLength());
      b3.flip();
      assertEquals(v3, IndexHeader.read(b3, "i", 3));
    }
    // A width above 2, or a common access beside per-record ids, is corruption.
    for (int[] bad : new int[][] {{3, 0}, {1, 5}, {2, 1}}) {
      ByteBuffer b3 = ByteBuffer.allocate(IndexHeader.SIZE);
      new IndexHeader(1, 0, 0, 1, 10, 3, 0, 0).writeTo(b3);
      b3.put(15, (byte) bad[0]).putShort(16, (short) bad[1]).rewind();
      assertThrows(CorruptArchiveException.class, () -> IndexHeader.read(b3, "i", 3));
    }
    // Version 1: records back to back, each with its own checksum.
    IndexHeader v1 = new IndexHeader(1000, 5, 0x17, 1, 777, 1);
    assertEquals(24 + 15 + 777 + 4 + 1000 * 40 + 8, v1.fileLength());
    buf.flip();
    assertEquals(v1, IndexHeader.read(buf, "i", 1));
    // Large counts do not overflow the offsets.
    IndexHeader big = new IndexHeader(Integer.MAX_VALUE, 24, 0, 1, Integer.MAX_VALUE, 2);
    assertEquals(24L + 15 + Integer.MAX_VALUE + 4, big.recordsOffset());
    long groups = (Integer.MAX_VALUE + 31L) / 32;
    assertEquals(big.recordsOffset() + 40L * Integer.MAX_VALUE + 4 * groups + 8,
        big.fileLength());
  }

  private static void assertRejected(int count, int depth, int recordSize, int functionLength) {
    ByteBuffer buf = ByteBuffer.allocate(IndexHeader.SIZE_V2);
    buf.putInt(count).put((byte) depth).putInt(0).put((byte) recordSize).put((byte) 1)
        .putInt(functionLength).flip();
    CorruptArchiveException e =
        assertThrows(CorruptArchiveException.class, () -> IndexHeader.read(buf, "index-f", 2));
    assertTrue(e.getMessage().contains("index-f"), e.getMessage());
  }

  @Test
  void rejectsImpossibleHeaders() {
    assertRejected(1, 0, 41, 0);
    assertRejected(1, 0, 0, 0);
    assertRejected(-1, 0, 40, 0);
    assertRejected(1, 25, 40, 0);
    assertRejected(1, 0, 40, -5);
  }
}
