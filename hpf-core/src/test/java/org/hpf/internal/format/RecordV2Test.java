package org.hpf.internal.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.hash.Hashing;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.hpf.CorruptArchiveException;
import org.hpf.LimitExceededException;
import org.junit.jupiter.api.Test;

/**
 * The version 2 record (with the modification time, no checksum of its own), the grouped
 * layout whose checksums cover it, and hash algorithm 2.
 */
class RecordV2Test {
  private static final NameHash HASH = new NameHash(0x1122334455667788L, 0x99AABBCCDDEEFF00L);

  private static byte[] encode(IndexRecord record) throws Exception {
    ByteBuffer buf = ByteBuffer.allocate(IndexRecord.SIZE);
    record.writeV2(buf);
    assertEquals(IndexRecord.SIZE, buf.position());
    return buf.array();
  }

  private static IndexRecord roundTrip(IndexRecord record) throws Exception {
    IndexRecord read = IndexRecord.readV2(encode(record), 0, "f", 0);
    assertEquals(record, read);
    return read;
  }

  @Test
  void layoutIsBigEndianWithPackedFields() throws Exception {
    IndexRecord record = new IndexRecord(HASH, 0x0A0B0C, 1, 0x0102030405L, 0x0708090A0BL,
        0x0C0D0E0F10L, 0x111213141516L);
    assertEquals("112233445566778899AABBCCDDEEFF00" // H
        + "505861" // PartFlags: part 0x0A0B0C << 3 | codec 1
        + "0102030405" // Offset:uint40
        + "0708090A0B" // EntryLength:uint40
        + "0C0D0E0F10" // OriginalLength:uint40
        + "111213141516", // MTimeMillis:int48
        HexFormat.of().formatHex(encode(record)).toUpperCase(java.util.Locale.ROOT));
  }

  @Test
  void roundTripsExtremeValuesAndTimes() throws Exception {
    roundTrip(new IndexRecord(new NameHash(0, 0), 0, 0, 0, 0, 0, 0));
    roundTrip(new IndexRecord(new NameHash(-1, -1), IndexRecord.MAX_PART, Codec.LZ4.id(),
        IndexRecord.MAX_OFFSET, IndexRecord.MAX_LENGTH, IndexRecord.MAX_LENGTH,
        (1L << 47) - 1));
    // Negative times (before 1970) keep their sign; the least int48 is "no time".
    for (long mtime : new long[] {-1, -86_400_000L, -(1L << 47) + 1, 1_700_000_000_000L}) {
      assertEquals(mtime, roundTrip(new IndexRecord(HASH, 3, 0, 1, 2, 3, mtime)).mtimeMillis());
    }
    IndexRecord noTime = roundTrip(new IndexRecord(HASH, 3, 0, 1, 2, 3));
    assertFalse(noTime.hasMtime());
    // A time beyond int48 cannot be stored: the record says it has none (the entry has it).
    for (long mtime : new long[] {1L << 47, -(1L << 47), Long.MAX_VALUE, Long.MIN_VALUE + 1}) {
      IndexRecord read = IndexRecord.readV2(encode(new IndexRecord(HASH, 3, 0, 1, 2, 3, mtime)),
          0, "f", 0);
      assertFalse(read.hasMtime(), "time " + mtime);
    }
    Random random = new Random(7);
    for (int i = 0; i < 1000; i++) {
      roundTrip(new IndexRecord(new NameHash(random.nextLong(), random.nextLong()),
          random.nextInt(IndexRecord.MAX_PART + 1), random.nextInt(2),
          random.nextLong() & IndexRecord.MAX_OFFSET, random.nextLong() & IndexRecord.MAX_LENGTH,
          random.nextLong() & IndexRecord.MAX_LENGTH, (random.nextLong() << 17) >> 17));
    }
  }

  @Test
  void tombstonesAndFlags() throws Exception {
    byte[] tombstone = encode(IndexRecord.tombstone(HASH));
    assertEquals("000004" + "00".repeat(15) + "800000000000",
        HexFormat.of().formatHex(tombstone, 16, 40).toUpperCase(java.util.Locale.ROOT));
    IndexRecord read = IndexRecord.readV2(tombstone, 0, "f", 0);
    assertTrue(read.isTombstone());
    assertEquals(IndexRecord.tombstone(HASH), read);
    // A tombstone with any location or time, and flags no codec has, are corruption.
    for (int at : new int[] {18, 19, 20, 25, 30, 35, 39}) {
      byte[] bad = tombstone.clone();
      bad[at] ^= 1;
      assertThrows(CorruptArchiveException.class, () -> IndexRecord.readV2(bad, 0, "f", 0),
          "byte " + at);
    }
    for (int flags : new int[] {2, 3, 5, 6, 7}) {
      byte[] bad = encode(new IndexRecord(HASH, 9, 0, 1, 2, 3, 4));
      bad[18] = (byte) ((bad[18] & ~7) | flags);
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> IndexRecord.readV2(bad, 0, "index-f", 100));
      assertTrue(e.getMessage().contains("index-f"), e.getMessage());
    }
  }

  @Test
  void aVersion1RecordBeyondVersion2sLimitsIsRefused() {
    assertThrows(LimitExceededException.class,
        () -> encode(new IndexRecord(HASH, IndexRecord.MAX_PART + 1, 0, 0, 0, 0)));
    assertThrows(LimitExceededException.class,
        () -> encode(new IndexRecord(HASH, 0, 0, IndexRecord.MAX_OFFSET + 1, 0, 0)));
  }

  @Test
  void accessIdsFollowEachGroupInTheWidthTheHeaderGives() throws Exception {
    for (int width = 1; width <= 2; width++) {
      RecordLayout layout = RecordLayout.ofAccessWidth(width);
      assertEquals(width, layout.accessWidth());
      for (int count : new int[] {1, 31, 32, 33, 100}) {
        List<IndexRecord> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
          IndexRecord record = i % 7 == 3 ? IndexRecord.tombstone(new NameHash(i, ~i))
              : new IndexRecord(new NameHash(i, ~i), i, 0, 10L * i, 50 + i, 9 + i, 1000L * i,
                  width == 1 ? 1 + i % 255 : 1 + 300 * i % 65535);
          records.add(record);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        layout.write(records, new DataOutputStream(out));
        byte[] section = out.toByteArray();
        int groups = (count + 31) / 32;
        int groupBytes = 32 * (40 + width) + 4;
        assertEquals((40L + width) * count + 4L * groups, section.length);
        assertEquals(section.length, layout.sectionLength(count));
        for (int g = 0; g < groups; g++) {
          int first = groupBytes * g;
          int n = Math.min(32, count - 32 * g);
          // Records, then their ids (big-endian), then the CRC32C of both.
          for (int k = 0; k < n; k++) {
            long id = width == 1 ? section[first + 40 * n + k] & 0xFF
                : ByteBuffer.wrap(section).getShort(first + 40 * n + 2 * k) & 0xFFFF;
            assertEquals(records.get(32 * g + k).access(), id, "id of slot " + (32 * g + k));
          }
          assertEquals(Checksums.crc32c(section, first, (40 + width) * n),
              ByteBuffer.wrap(section).getInt(first + (40 + width) * n), "group " + g);
        }
        for (int slot = 0; slot < count; slot++) {
          assertEquals((long) groupBytes * (slot / 32) + 40L * (slot % 32),
              layout.position(slot));
          byte[] read = Arrays.copyOfRange(section, (int) layout.readStart(slot),
              (int) layout.readEnd(slot, count));
          assertEquals(records.get(slot),
              new RecordLayout.Span(layout, read, slot, count, "f", 0).record(slot));
        }
        // A flipped bit in an id fails its group's checksum.
        byte[] flipped = section.clone();
        int n0 = Math.min(32, count);
        flipped[40 * n0] ^= 1;
        assertThrows(CorruptArchiveException.class,
            () -> new RecordLayout.Span(layout, flipped, 0, count, "f", 0).record(0));
      }
    }
    // Width 0 gives every record the header's common access; a tombstone with an id is damage.
    IndexRecord one = new IndexRecord(new NameHash(1, 2), 3, 0, 4, 50, 9, 1000L);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RecordLayout.GROUPED.write(List.of(one), new DataOutputStream(out));
    assertEquals(one.withAccess(77), new RecordLayout.Span(RecordLayout.GROUPED,
        out.toByteArray(), 0, 1, "f", 0, 77).record(0));
    ByteArrayOutputStream gone = new ByteArrayOutputStream();
    RecordLayout.GROUPED.write(List.of(IndexRecord.tombstone(new NameHash(1, 2))),
        new DataOutputStream(gone));
    assertThrows(CorruptArchiveException.class, () -> new RecordLayout.Span(
        RecordLayout.GROUPED, gone.toByteArray(), 0, 1, "f", 0, 77).record(0));
    assertEquals(0, RecordLayout.accessWidth(true, 900));
    assertEquals(1, RecordLayout.accessWidth(false, 255));
    assertEquals(2, RecordLayout.accessWidth(false, 256));
  }

  @Test
  void groupedLayoutPlacesAndChecksEveryRecord() throws Exception {
    for (int count : new int[] {1, 31, 32, 33, 64, 100}) {
      List<IndexRecord> records = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        records.add(new IndexRecord(new NameHash(i, ~i), i, 0, 10L * i, 50 + i, 9 + i, 1000L * i));
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      RecordLayout.GROUPED.write(records, new DataOutputStream(out));
      byte[] section = out.toByteArray();
      int groups = (count + 31) / 32;
      assertEquals(40L * count + 4L * groups, section.length);
      assertEquals(section.length, RecordLayout.GROUPED.sectionLength(count));
      for (int g = 0; g < groups; g++) {
        int first = 1284 * g;
        int n = Math.min(32, count - 32 * g);
        assertEquals(Checksums.crc32c(section, first, 40 * n),
            ByteBuffer.wrap(section).getInt(first + 40 * n), "group " + g);
      }
      for (int slot = 0; slot < count; slot++) {
        long start = RecordLayout.GROUPED.readStart(slot);
        long end = RecordLayout.GROUPED.readEnd(slot, count);
        assertEquals(1284L * (slot / 32) + 40L * (slot % 32), RecordLayout.GROUPED.position(slot));
        byte[] read = Arrays.copyOfRange(section, (int) start, (int) end);
        assertEquals(records.get(slot),
            new RecordLayout.Span(RecordLayout.GROUPED, read, slot, count, "f", 0).record(slot));
      }
      // One span over everything serves every slot.
      RecordLayout.Span all = new RecordLayout.Span(RecordLayout.GROUPED, section, 0, count, "f",
          0);
      for (int slot = 0; slot < count; slot++) {
        assertEquals(records.get(slot), all.record(slot));
      }
    }
  }

  @Test
  void everyBitFlipFailsExactlyTheLookupsOfItsGroup() throws Exception {
    int count = 70;
    List<IndexRecord> records = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      records.add(new IndexRecord(new NameHash(i, i), 1, 0, i, 60, 20, i));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RecordLayout.GROUPED.write(records, new DataOutputStream(out));
    byte[] section = out.toByteArray();
    for (int bit = 0; bit < 8 * section.length; bit++) {
      byte[] flipped = FormatTesting.flip(section, bit);
      int group = (bit / 8) / 1284;
      for (int slot = 0; slot < count; slot++) {
        if (slot / 32 != group && slot % 32 != 0) {
          continue; // one record of each other group is enough to see them unharmed
        }
        RecordLayout.Span span =
            new RecordLayout.Span(RecordLayout.GROUPED, flipped, 0, count, "index-f", 500);
        int s = slot;
        if (slot / 32 == group) {
          CorruptArchiveException e =
              assertThrows(CorruptArchiveException.class, () -> span.record(s));
          assertTrue(e.getMessage().contains("index-f"), e.getMessage());
        } else {
          assertEquals(records.get(slot), span.record(slot));
        }
      }
    }
  }

  @Test
  void perRecordLayoutIsVersion1s() throws Exception {
    List<IndexRecord> records = List.of(new IndexRecord(HASH, 1, 0, 2, 3, 4),
        IndexRecord.tombstone(new NameHash(5, 6)));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RecordLayout.PER_RECORD.write(records, new DataOutputStream(out));
    byte[] expected = new byte[80];
    System.arraycopy(records.get(0).toBytes(), 0, expected, 0, 40);
    System.arraycopy(records.get(1).toBytes(), 0, expected, 40, 40);
    assertArrayEquals(expected, out.toByteArray());
    assertEquals(RecordLayout.PER_RECORD, RecordLayout.of(1));
    assertEquals(RecordLayout.GROUPED, RecordLayout.of(2));
  }

  @Test
  void hashAlgorithmTwoIsTheFirst16BytesOfSha256() {
    for (String name : List.of("a", "dir/file.txt", "ünïcödé/名前", "x".repeat(4096))) {
      byte[] sha = Hashing.sha256().hashBytes(name.getBytes(StandardCharsets.UTF_8)).asBytes();
      assertEquals(NameHash.of(sha, 0), NameHasher.SHA256_128.hash(name));
    }
    assertEquals(NameHasher.SHA256_128_ID, NameHasher.SHA256_128.algorithm());
    assertTrue(NameHasher.SHA256_128.collisionResistant());
    assertEquals(NameHasher.MURMUR3_128_ID, NameHasher.MURMUR3_128.algorithm());
    assertFalse(NameHasher.MURMUR3_128.collisionResistant());
    assertEquals(NameHasher.SHA256_128, NameHasher.DEFAULT);
    assertEquals(NameHasher.MURMUR3_128, NameHasher.forAlgorithm(1));
    assertEquals(NameHasher.SHA256_128, NameHasher.forAlgorithm(2));
    assertThrows(IllegalArgumentException.class, () -> NameHasher.forAlgorithm(3));
    // A hasher of a test's own is treated as algorithm 1, whose collisions can be made.
    NameHasher own = name -> new NameHash(0, 0);
    assertEquals(NameHasher.MURMUR3_128_ID, own.algorithm());
    assertFalse(own.collisionResistant());
  }
}
