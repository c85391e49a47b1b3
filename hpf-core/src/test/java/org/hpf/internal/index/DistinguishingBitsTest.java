package org.hpf.internal.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.NameHash;
import org.junit.jupiter.api.Test;

/**
 * Function codecs 3 and 4 (docs/FORMAT.md, "Function codec 3: distinguishing bits"), as sux4j
 * tests its functions: sizes 0, 1, 2, ... up to 10^5, each a bijection of the bucket's hashes
 * onto their ranks that agrees with sux4j's hollow trie (codec 1), with unknown keys mapped into
 * range; the bytes of a small function as the grammar spells them; and damaged or crafted
 * sections refused or, where they still decode, never mapping outside the bucket.
 */
class DistinguishingBitsTest {
  private static final long SEED = Long.getLong("hpf.test.seed", new SecureRandom().nextLong());

  private static List<NameHash> sortedHashes(Random random, int size) {
    TreeSet<NameHash> hashes = new TreeSet<>();
    while (hashes.size() < size) {
      hashes.add(new NameHash(random.nextLong(), random.nextLong()));
    }
    return new ArrayList<>(hashes);
  }

  private static List<byte[]> keys(List<NameHash> hashes) {
    List<byte[]> keys = new ArrayList<>();
    for (NameHash hash : hashes) {
      keys.add(hash.toBytes());
    }
    return keys;
  }

  private static BucketFunction readBack(BucketFunction built, int size) throws Exception {
    byte[] bytes = built.toBytes();
    byte[] framed = new byte[bytes.length + 7];
    System.arraycopy(bytes, 0, framed, 3, bytes.length);
    return BucketFunction.fromBytes(built.codec(), framed, 3, bytes.length, size, "test");
  }

  @Test
  void everySizeIsABijectionOntoTheRanks() throws Exception {
    Random random = new Random(SEED);
    List<Integer> sizes = new ArrayList<>();
    for (int size = 0; size <= 130; size++) {
      sizes.add(size);
    }
    for (long size = 131; size <= 100_000; size = size * 3 / 2) {
      sizes.add((int) size);
    }
    sizes.add(100_000);
    for (int size : sizes) {
      List<NameHash> hashes = sortedHashes(random, size);
      boolean fingerprints = size % 2 == 1;
      BucketFunction built = BucketFunction.build(keys(hashes), fingerprints);
      assertEquals(size == 0 ? BucketFunction.CODEC_EMPTY : fingerprints
          ? BucketFunction.CODEC_DISTINGUISHING_BITS_FINGERPRINTS
          : BucketFunction.CODEC_DISTINGUISHING_BITS, built.codec(), "size " + size);
      BucketFunction read = readBack(built, size);
      // sux4j's trie over the same keys, at sizes where building it is cheap.
      BucketFunction trie = size > 0 && size <= 2_000
          ? BucketFunction.buildHollowTrie(keys(hashes), false) : null;
      for (int i = 0; i < size; i++) {
        assertEquals(i, read.slotOf(hashes.get(i)), "size " + size + ", key " + i + ", seed "
            + SEED);
        if (trie != null) {
          assertEquals(trie.slotOf(hashes.get(i)), i, "sux4j agrees");
        }
      }
      for (int i = 0; i < 20; i++) {
        long slot = read.slotOf(new NameHash(random.nextLong(), random.nextLong()));
        assertTrue(slot >= -1 && slot < size, "unknown key: slot " + slot + " of " + size);
      }
    }
  }

  /**
   * Hashes chosen so that neighbours differ first at bit 0, 127 and near each other: positions
   * far outside any base's 15 values are escaped, follow the nibbles in order, and come back.
   */
  @Test
  void extremeBitPositionsTravelAsExceptions() throws Exception {
    List<NameHash> hashes = new ArrayList<>();
    for (long i = 0; i < 40; i++) {
      hashes.add(new NameHash(0, i)); // differ in the low bits: positions 122..127
    }
    hashes.add(new NameHash(1L << 40, 0)); // differs from the above at bit 23
    hashes.add(new NameHash(Long.MIN_VALUE, 0)); // at bit 0
    hashes.add(new NameHash(Long.MIN_VALUE, 1)); // at bit 127
    hashes.sort(null);
    BucketFunction built = BucketFunction.build(keys(hashes), false);
    byte[] bytes = built.toBytes();
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    int nibbles = (hashes.size() - 1 + 1) / 2;
    int escaped = 0;
    for (int i = 1; i <= nibbles; i++) {
      escaped += ((buf.get(i) & 0xF0) == 0xF0 ? 1 : 0) + ((buf.get(i) & 0x0F) == 0x0F ? 1 : 0);
    }
    assertTrue(escaped >= 2, "escaped " + escaped);
    assertEquals(1 + nibbles + escaped, bytes.length);
    BucketFunction read = readBack(built, hashes.size());
    for (int i = 0; i < hashes.size(); i++) {
      assertEquals(i, read.slotOf(hashes.get(i)), "key " + i);
    }
  }

  /**
   * Four hashes whose neighbours differ first at bits 5, 2 and 7: the base is 0 (the lowest
   * base whose 15 values hold the most of them), the nibbles 5, 2, 7 and a 0 after the odd last
   * one, nothing escaped; codec 4 then adds bytes 8 and 9 of each hash. Then the same with
   * positions 1, 40 and 50: base 36 is the lowest that holds two, so 1 is escaped (nibbles 15,
   * 4, 14 and 0, then 01).
   */
  @Test
  void theBytesOfASmallFunctionAreTheGrammars() throws Exception {
    List<NameHash> hashes = List.of(
        new NameHash(0x0000_0000_0000_0000L, 0x1111_0000_0000_0000L),
        new NameHash(0x0400_0000_0000_0000L, 0x2222_0000_0000_0000L),  // bit 5
        new NameHash(0x2000_0000_0000_0000L, 0x3333_0000_0000_0000L),  // bit 2
        new NameHash(0x2100_0000_0000_0000L, 0x4444_0000_0000_0000L)); // bit 7
    assertEquals("00" + "52" + "70",
        HexFormat.of().formatHex(BucketFunction.build(keys(hashes), false).toBytes()));
    assertEquals("00" + "52" + "70" + "1111222233334444",
        HexFormat.of().formatHex(BucketFunction.build(keys(hashes), true).toBytes()));
    List<NameHash> spread = List.of(
        new NameHash(0x0000_0000_0000_0000L, 0),
        new NameHash(0x4000_0000_0000_0000L, 0),  // bit 1
        new NameHash(0x4000_0000_0080_0000L, 0),  // bit 40
        new NameHash(0x4000_0000_0080_2000L, 0)); // bit 50
    assertEquals("24" + "f4" + "e0" + "01",
        HexFormat.of().formatHex(BucketFunction.build(keys(spread), false).toBytes()));
    // One key: a base and no positions.
    assertArrayEquals(new byte[] {0},
        BucketFunction.build(keys(hashes.subList(0, 1)), false).toBytes());
  }

  @Test
  void fourBitsPerKeyAtScale() {
    Random random = new Random(SEED);
    for (int size : new int[] {10_000, 100_000}) {
      byte[] bytes = BucketFunction.build(keys(sortedHashes(random, size)), false).toBytes();
      double bitsPerKey = bytes.length * 8.0 / size;
      assertTrue(bitsPerKey < 4.15, size + " keys: " + bitsPerKey + " bits per key");
    }
  }

  /**
   * Every truncation, extension and single bit flip of a codec 3 and a codec 4 section: refused
   * as corruption, or decoded to a function whose every answer is a record number or -1 (the
   * reader then compares the record's hash, so a wrong number is "not this record", never
   * another member). Truncations and extensions are always refused.
   */
  @Test
  void damagedSectionsAreRefusedOrStayInRange() throws Exception {
    Random random = new Random(SEED);
    int size = 300;
    List<NameHash> hashes = sortedHashes(random, size);
    for (boolean fingerprints : new boolean[] {false, true}) {
      BucketFunction built = BucketFunction.build(keys(hashes), fingerprints);
      byte[] good = built.toBytes();
      int codec = built.codec();
      for (int length = 0; length < good.length; length++) {
        int n = length;
        assertThrows(CorruptArchiveException.class,
            () -> BucketFunction.fromBytes(codec, good, 0, n, size, "t"), "cut to " + n);
      }
      byte[] longer = java.util.Arrays.copyOf(good, good.length + 1);
      assertThrows(CorruptArchiveException.class,
          () -> BucketFunction.fromBytes(codec, longer, 0, longer.length, size, "t"));
      assertThrows(CorruptArchiveException.class,
          () -> BucketFunction.fromBytes(codec, good, 0, good.length, size + 1, "t"));
      int refused = 0;
      for (int bit = 0; bit < 8 * good.length; bit++) {
        byte[] bad = good.clone();
        bad[bit / 8] ^= (byte) (1 << (bit % 8));
        BucketFunction read;
        try {
          read = BucketFunction.fromBytes(codec, bad, 0, bad.length, size, "t");
        } catch (CorruptArchiveException e) {
          refused++;
          continue;
        }
        for (NameHash hash : hashes) {
          long slot = read.slotOf(hash);
          assertTrue(slot >= -1 && slot < size, "bit " + bit + ": slot " + slot);
        }
      }
      // A flipped base or nibble makes two positions equal with no smaller between, often.
      assertTrue(refused > 8 * (good.length - 2 * (fingerprints ? size : 0)) / 4,
          "refused " + refused + " of " + 8 * good.length + " flips");
    }
  }

  /**
   * A crafted section (checksums recomputed) cannot make the reader allocate more than it holds:
   * a record count far beyond its nibbles is refused before anything of that size is allocated,
   * and escaped nibbles beyond its bytes are refused.
   */
  @Test
  void craftedCountsAreRefusedBeforeTheyAllocate() throws Exception {
    Random random = new Random(SEED);
    List<NameHash> hashes = sortedHashes(random, 50);
    byte[] good = BucketFunction.build(keys(hashes), false).toBytes();
    assertThrows(CorruptArchiveException.class, () -> BucketFunction.fromBytes(
        BucketFunction.CODEC_DISTINGUISHING_BITS, good, 0, good.length, Integer.MAX_VALUE, "t"));
    // Escaped nibbles whose values the section lacks: all 49 nibbles made 15.
    byte[] escapes = good.clone();
    java.util.Arrays.fill(escapes, 1, 26, (byte) 0xFF);
    escapes[25] = (byte) 0xF0;
    assertThrows(CorruptArchiveException.class, () -> BucketFunction.fromBytes(
        BucketFunction.CODEC_DISTINGUISHING_BITS, escapes, 0, escapes.length, 50, "t"));
    // Positions that no sorted hashes have: 3, 3 with nothing smaller between.
    byte[] repeated = {3, 0x00};
    assertThrows(CorruptArchiveException.class, () -> BucketFunction.fromBytes(
        BucketFunction.CODEC_DISTINGUISHING_BITS, repeated, 0, repeated.length, 3, "t"));
    byte[] valid = {3, 0x10}; // 3, 4: a trie
    BucketFunction.fromBytes(BucketFunction.CODEC_DISTINGUISHING_BITS, valid, 0, valid.length,
        3, "t");
    byte[] highBase = {(byte) (DistinguishingBits.MAX_BASE + 1)};
    // An escaped value inside the base's values, or past bit 127.
    for (int value : new int[] {5, 128, 255}) {
      byte[] inside = {0, (byte) 0x1F, (byte) value};
      assertThrows(CorruptArchiveException.class, () -> BucketFunction.fromBytes(
          BucketFunction.CODEC_DISTINGUISHING_BITS, inside, 0, inside.length, 3, "t"));
    }
    assertThrows(CorruptArchiveException.class, () -> BucketFunction.fromBytes(
        BucketFunction.CODEC_DISTINGUISHING_BITS, highBase, 0, highBase.length, 1, "t"));
  }
}
