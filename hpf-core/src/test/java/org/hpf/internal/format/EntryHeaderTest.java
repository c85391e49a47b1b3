package org.hpf.internal.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.hpf.CorruptArchiveException;
import org.junit.jupiter.api.Test;

/** The header of an entry in a part file. */
class EntryHeaderTest {

  @Test
  void layoutMatchesTheSpec() throws Exception {
    EntryHeader header = new EntryHeader("a/b", Codec.LZ4.id(), 0x0102030405060708L, 9,
        0x1112131415161718L);
    byte[] bytes = header.toBytes();
    assertEquals(36 + 3, bytes.length);
    assertEquals(bytes.length, header.size());
    assertEquals(EntryHeader.size(3), header.size());
    String hex = HexFormat.of().formatHex(bytes, 0, bytes.length - 4).toUpperCase(java.util.Locale.ROOT);
    assertEquals("48504645" // "HPFE"
        + "01" + "00" + "0003" // flags, reserved, name length
        + "0102030405060708" // original length
        + "0000000000000009" // stored length
        + "1112131415161718" // mtime
        + "612F62", hex); // name
    assertEquals(Checksums.crc32c(bytes, 0, bytes.length - 4),
        ByteBuffer.wrap(bytes).getInt(bytes.length - 4));
    // An entry is 36 + NameLength + StoredLength + 4 bytes.
    assertEquals(36 + 3 + 9 + 4, header.entryLength());
  }

  @Test
  void roundTripsIncludingNonAsciiAndLongNames() throws Exception {
    String[] names = {"x", "dïr/日本語/😀.txt", "d/".repeat(1000) + "f", "é".repeat(2048)};
    for (String name : names) {
      for (Codec codec : Codec.values()) {
        EntryHeader header = new EntryHeader(name, codec.id(), 1L << 40, 17, -5);
        byte[] bytes = header.toBytes();
        assertEquals(EntryHeader.size(name.getBytes(StandardCharsets.UTF_8).length),
            bytes.length);
        // With bytes before it and the rest of the entry after it.
        byte[] buffer = new byte[bytes.length + 50];
        System.arraycopy(bytes, 0, buffer, 10, bytes.length);
        EntryHeader read = EntryHeader.read(buffer, 10, bytes.length + 40, "part", 1234);
        assertEquals(header, read);
        assertEquals(codec, read.codec());
      }
    }
  }

  @Test
  void everySingleBitFlipIsDetected() throws Exception {
    byte[] bytes = new EntryHeader("dir/name.txt", Codec.RAW.id(), 100, 100, 1700000000000L)
        .toBytes();
    for (int bit = 0; bit < 8 * bytes.length; bit++) {
      byte[] flipped = FormatTesting.flip(bytes, bit);
      int at = bit;
      // Give the reader the whole remaining entry, as a get does.
      byte[] entry = java.util.Arrays.copyOf(flipped, flipped.length + 104);
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> EntryHeader.read(entry, 0, entry.length, "part-000001", 28),
          () -> "bit " + at);
      assertTrue(e.getMessage().contains("part-000001 at offset 28"), e.getMessage());
    }
  }

  @Test
  void tooShortForTheHeaderOrTheName() throws Exception {
    byte[] bytes = new EntryHeader("name", Codec.RAW.id(), 0, 0, 0).toBytes();
    for (int available = 0; available < bytes.length; available++) {
      int n = available;
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> EntryHeader.read(bytes, 0, n, "p", 0));
      assertTrue(e.getMessage().contains("entry"), e.getMessage());
    }
    // A (checksummed) name length that runs past the entry is caught before any read past it.
    byte[] big = new EntryHeader("n".repeat(60000), 0, 0, 0, 0).toBytes();
    assertThrows(CorruptArchiveException.class, () -> EntryHeader.read(big, 0, 100, "p", 0));
  }

  @Test
  void badMagicAndUnknownFlags() throws Exception {
    byte[] bytes = new EntryHeader("n", 0, 1, 1, 1).toBytes();
    bytes[0] = 'X';
    assertTrue(assertThrows(CorruptArchiveException.class,
        () -> EntryHeader.read(bytes, 0, bytes.length, "p", 0)).getMessage()
        .contains("no entry here"));
    for (int flags : new int[] {2, 3, 4, 0x80}) {
      byte[] withFlags = new EntryHeader("n", flags, 1, 1, 1).toBytes();
      assertTrue(assertThrows(CorruptArchiveException.class,
          () -> EntryHeader.read(withFlags, 0, withFlags.length, "p", 0)).getMessage()
          .contains("unknown entry flags"));
    }
  }
}
