package org.hpf.internal.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.Random;
import org.hpf.CorruptArchiveException;
import org.hpf.LimitExceededException;
import org.junit.jupiter.api.Test;

/** The 40-byte index record: layout, limits, round trip and its checksum. */
class IndexRecordTest {
  private static final NameHash HASH = new NameHash(0x1122334455667788L, 0x99AABBCCDDEEFF00L);

  private static IndexRecord roundTrip(IndexRecord record) throws Exception {
    byte[] bytes = record.toBytes();
    assertEquals(IndexRecord.SIZE, bytes.length);
    IndexRecord read = IndexRecord.read(bytes, 0, "f", 0);
    assertEquals(record, read);
    return read;
  }

  @Test
  void layoutIsBigEndianWithPackedFields() throws Exception {
    IndexRecord record = new IndexRecord(HASH, 0x0A0B0C, 1, 0x010203040506L, 0x0708090A0BL,
        0x0C0D0E0F10L);
    byte[] bytes = record.toBytes();
    String hex = HexFormat.of().formatHex(bytes, 0, 36);
    assertEquals("112233445566778899AABBCCDDEEFF00" // H
        + "0A0B0C" // Part:uint24
        + "01" // Flags
        + "010203040506" // Offset:uint48
        + "0708090A0B" // EntryLength:uint40
        + "0C0D0E0F10", // OriginalLength:uint40
        hex.toUpperCase(java.util.Locale.ROOT));
    assertEquals(Checksums.crc32c(bytes, 0, 36), ByteBuffer.wrap(bytes).getInt(36));
    roundTrip(record);
  }

  @Test
  void roundTripsMinimumAndMaximumFieldValues() throws Exception {
    roundTrip(new IndexRecord(new NameHash(0, 0), 0, 0, 0, 0, 0));
    // Version 1 (journals and older index files): 24-bit parts, 48-bit offsets.
    IndexRecord max = new IndexRecord(new NameHash(-1, -1), (1 << 24) - 1, Codec.LZ4.id(),
        (1L << 48) - 1, IndexRecord.MAX_LENGTH, IndexRecord.MAX_LENGTH);
    IndexRecord read = roundTrip(max);
    assertEquals((1 << 24) - 1, read.part());
    assertEquals((1L << 48) - 1, read.offset());
    assertEquals((1L << 40) - 1, read.entryLength());
    assertEquals((1L << 40) - 1, read.originalLength());
    assertEquals(Codec.LZ4, read.codec());
    // Values with the top bit of each field set, to catch sign extension.
    roundTrip(new IndexRecord(new NameHash(Long.MIN_VALUE, Long.MIN_VALUE), 1 << 23, 0,
        1L << 47, 1L << 39, 1L << 39));
    roundTrip(new IndexRecord(new NameHash(0x80, 0x80), 0x800080, 1, 0x800000008080L,
        0x8000008080L, 0x80808080L));
  }

  @Test
  void roundTripsRandomRecordsAtAnyOffsetOfABuffer() throws Exception {
    Random random = new Random(42);
    byte[] buffer = new byte[IndexRecord.SIZE * 50 + 7];
    IndexRecord[] records = new IndexRecord[50];
    ByteBuffer buf = ByteBuffer.wrap(buffer);
    buf.position(7);
    for (int i = 0; i < records.length; i++) {
      records[i] = new IndexRecord(new NameHash(random.nextLong(), random.nextLong()),
          random.nextInt(1 << 24), random.nextInt(2), random.nextLong() >>> 16,
          random.nextLong() >>> 24, random.nextLong() >>> 24);
      records[i].writeTo(buf);
    }
    assertEquals(buffer.length, buf.position());
    for (int i = 0; i < records.length; i++) {
      assertEquals(records[i], IndexRecord.read(buffer, 7 + i * IndexRecord.SIZE, "f", 0));
    }
    // writeTo on a slice of a larger array (non-zero array offset) checksums the right bytes.
    ByteBuffer slice = ByteBuffer.wrap(new byte[100], 20, 60).slice();
    records[3].writeTo(slice);
    byte[] copy = new byte[IndexRecord.SIZE];
    System.arraycopy(slice.array(), slice.arrayOffset(), copy, 0, IndexRecord.SIZE);
    assertArrayEquals(records[3].toBytes(), copy);
  }

  @Test
  void everySingleBitFlipIsDetected() throws Exception {
    byte[] bytes = new IndexRecord(HASH, 77, 1, 123456, 789, 1000).toBytes();
    for (int bit = 0; bit < 8 * IndexRecord.SIZE; bit++) {
      byte[] flipped = FormatTesting.flip(bytes, bit);
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> IndexRecord.read(flipped, 0, "index-x", 4000));
      assertTrue(e.getMessage().contains("record checksum"), e.getMessage());
      assertTrue(e.getMessage().contains("index-x at offset 4000"), e.getMessage());
    }
  }

  @Test
  void unknownFlagsAreCorruptionEvenWithAValidChecksum() {
    for (int flags : new int[] {2, 3, 4, 0x81, 0xFF}) {
      // The constructor accepts any byte (writer side); the reader accepts only known codecs.
      byte[] bytes = new IndexRecord(HASH, 1, flags, 2, 3, 4).toBytes();
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> IndexRecord.read(bytes, 0, "f", 0));
      assertTrue(e.getMessage().contains("unknown record flags"), e.getMessage());
    }
  }

  /**
   * A tombstone is Flags 0x80 with Part, Offset, EntryLength and OriginalLength 0: it round trips
   * and reads as a tombstone; any other use of bit 7, or a tombstone with a non-zero field, is
   * corruption even with a valid checksum.
   */
  @Test
  void tombstonesAreAcceptedOnlyInTheirExactForm() throws Exception {
    IndexRecord tombstone = IndexRecord.tombstone(HASH);
    assertTrue(tombstone.isTombstone());
    byte[] bytes = tombstone.toBytes();
    assertEquals("112233445566778899AABBCCDDEEFF00" + "000000" + "80" + "000000000000"
        + "0000000000" + "0000000000",
        HexFormat.of().formatHex(bytes, 0, 36).toUpperCase(java.util.Locale.ROOT));
    assertEquals(Checksums.crc32c(bytes, 0, 36), ByteBuffer.wrap(bytes).getInt(36));
    IndexRecord read = roundTrip(tombstone);
    assertTrue(read.isTombstone());
    assertEquals(HASH, read.hash());
    assertTrue(!new IndexRecord(HASH, 1, 1, 2, 3, 4).isTombstone());
    assertTrue(!new IndexRecord(HASH, 0, 0, 0, 0, 0).isTombstone(), "an empty raw member");
    IndexRecord[] almost = {
        new IndexRecord(HASH, 1, 0x80, 0, 0, 0), new IndexRecord(HASH, 0, 0x80, 1, 0, 0),
        new IndexRecord(HASH, 0, 0x80, 0, 1, 0), new IndexRecord(HASH, 0, 0x80, 0, 0, 1),
        new IndexRecord(HASH, 0, 0x81, 0, 0, 0), new IndexRecord(HASH, 0, 0xC0, 0, 0, 0),
        new IndexRecord(HASH, 0, 0x40, 0, 0, 0), new IndexRecord(HASH, 7, 0x80, 8, 9, 10)};
    for (IndexRecord record : almost) {
      byte[] encoded = record.toBytes();
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> IndexRecord.read(encoded, 0, "f", 0), record.toString());
      assertTrue(e.getMessage().contains("unknown record flags"), e.getMessage());
    }
  }

  @Test
  void writerSideLimits() {
    assertThrows(LimitExceededException.class,
        () -> IndexRecord.checkLimits(IndexRecord.MAX_PART + 1, 0, 0, 0));
    assertThrows(LimitExceededException.class,
        () -> IndexRecord.checkLimits(0, IndexRecord.MAX_OFFSET + 1, 0, 0));
    assertThrows(LimitExceededException.class,
        () -> IndexRecord.checkLimits(0, 0, IndexRecord.MAX_LENGTH + 1, 0));
    assertThrows(LimitExceededException.class,
        () -> IndexRecord.checkLimits(0, 0, 0, IndexRecord.MAX_LENGTH + 1));
    org.junit.jupiter.api.Assertions.assertDoesNotThrow(() -> IndexRecord.checkLimits(
        IndexRecord.MAX_PART, IndexRecord.MAX_OFFSET, IndexRecord.MAX_LENGTH,
        IndexRecord.MAX_LENGTH));
    // Out-of-range values never reach the encoder, which would silently drop high bits.
    assertThrows(IllegalArgumentException.class,
        () -> new IndexRecord(HASH, 1 << 24, 0, 0, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new IndexRecord(HASH, -1, 0, 0, 0, 0));
    assertThrows(IllegalArgumentException.class,
        () -> new IndexRecord(HASH, 0, 0, 1L << 48, 0, 0));
    assertThrows(IllegalArgumentException.class,
        () -> new IndexRecord(HASH, 0, 0, 0, 1L << 40, 0));
    assertThrows(IllegalArgumentException.class,
        () -> new IndexRecord(HASH, 0, 0, 0, 0, 1L << 40));
    assertThrows(IllegalArgumentException.class, () -> new IndexRecord(HASH, 0, 256, 0, 0, 0));
  }

  @Test
  void nameHashOrderIsUnsigned() {
    NameHash small = new NameHash(0x7FFFFFFFFFFFFFFFL, 0);
    NameHash large = new NameHash(0x8000000000000000L, 0);
    assertTrue(small.compareTo(large) < 0);
    assertTrue(new NameHash(1, 0x7F).compareTo(new NameHash(1, -1)) < 0);
    assertEquals(HASH, NameHash.of(HASH.toBytes(), 0));
  }

  @Test
  void murmurHashIsGuavasMurmur3OfTheUtf8Bytes() {
    byte[] guava = com.google.common.hash.Hashing.murmur3_128(0)
        .hashBytes("dir/fïle".getBytes(java.nio.charset.StandardCharsets.UTF_8)).asBytes();
    assertArrayEquals(guava, NameHasher.MURMUR3_128.hash("dir/fïle").toBytes());
    // A fixed vector (MurmurHash3_x64_128("hello", seed 0), h1 then h2, each little-endian as
    // Guava's asBytes() writes them), so a change of library or byte order cannot pass unnoticed.
    assertEquals("029bbd41b3a7d8cb191dae486a901e5b",
        NameHasher.MURMUR3_128.hash("hello").toString());
  }
}
