package org.hpf.internal.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.NameHash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The hollow-trie bucket function (codecs 1 and 2, which hpf wrote before codec 3 and still
 * reads) of every small size survives its codec: built over sorted hashes, written
 * to bytes and read back, it maps each hash to its rank. Size 1 is the case sux4j cannot
 * serialize on its own (its single-key trie holds a non-serializable empty bit vector). Codec 2
 * (docs/FORMAT.md, "Function codecs") is codec 1 framed by its length and followed by a 16-bit
 * fingerprint per record, which lets a lookup reject most absent keys without a record read.
 */
class BucketFunctionTest {

  private static List<NameHash> sortedHashes(Random random, int size) {
    List<NameHash> hashes = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      hashes.add(new NameHash(random.nextLong(), random.nextLong()));
    }
    hashes.sort(null);
    return hashes;
  }

  private static List<byte[]> keys(List<NameHash> hashes) {
    List<byte[]> keys = new ArrayList<>();
    for (NameHash hash : hashes) {
      keys.add(hash.toBytes());
    }
    for (int i = 1; i < keys.size(); i++) {
      assertTrue(Arrays.compareUnsigned(keys.get(i - 1), keys.get(i)) < 0, "sorted keys");
    }
    return keys;
  }

  /** The fingerprint of a hash as the spec defines it: bits 63..48 of its second 8 bytes. */
  private static short fingerprint(NameHash hash) {
    byte[] bytes = hash.toBytes();
    return (short) (((bytes[8] & 0xFF) << 8) | (bytes[9] & 0xFF));
  }

  private static BucketFunction readBack(BucketFunction built, byte[] bytes, int size)
      throws CorruptArchiveException {
    byte[] framed = new byte[bytes.length + 10];
    System.arraycopy(bytes, 0, framed, 5, bytes.length);
    return BucketFunction.fromBytes(built.codec(), framed, 5, bytes.length, size, "test");
  }

  @ParameterizedTest
  @CsvSource({"0,false", "1,false", "2,false", "3,false", "7,false", "64,false", "1000,false",
      "0,true", "1,true", "2,true", "3,true", "7,true", "64,true", "1000,true"})
  void survivesItsCodec(int size, boolean fingerprints) throws Exception {
    long seed = Long.getLong("hpf.test.seed", new SecureRandom().nextLong());
    Random random = new Random(seed ^ size);
    List<NameHash> hashes = sortedHashes(random, size);
    BucketFunction built = BucketFunction.buildHollowTrie(keys(hashes), fingerprints);
    byte[] bytes = built.toBytes();
    int codec = size == 0 ? BucketFunction.CODEC_EMPTY : fingerprints
        ? BucketFunction.CODEC_HOLLOW_TRIE_FINGERPRINTS : BucketFunction.CODEC_HOLLOW_TRIE;
    assertEquals(codec, built.codec());
    assertEquals(size == 0, bytes.length == 0, "function bytes of " + size + " keys");
    BucketFunction read = readBack(built, bytes, size);
    assertEquals(size, read.size());
    assertEquals(codec, read.codec());
    for (int i = 0; i < size; i++) {
      assertEquals(i, built.slotOf(hashes.get(i)), "built, key " + i + ", seed " + seed);
      assertEquals(i, read.slotOf(hashes.get(i)), "read back, key " + i + ", seed " + seed);
    }
    // Keys outside the bucket map to a record number in range or -1, never beyond.
    for (int i = 0; i < 100; i++) {
      long slot = read.slotOf(new NameHash(random.nextLong(), random.nextLong()));
      assertTrue(slot >= -1 && slot < size, "slot " + slot + " of " + size);
    }
  }

  /**
   * Codec 2 --> SerializedLength:int32, codec 1 bytes, Fingerprint:uint16^RecordCount; the codec
   * 1 bytes are exactly those of the function built without fingerprints.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 5, 300})
  void codec2LayoutIsCodec1PlusFingerprints(int size) throws Exception {
    Random random = new Random(size * 31L);
    List<NameHash> hashes = sortedHashes(random, size);
    byte[] codec1 = BucketFunction.buildHollowTrie(keys(hashes), false).toBytes();
    byte[] codec2 = BucketFunction.buildHollowTrie(keys(hashes), true).toBytes();
    assertEquals(4 + codec1.length + 2 * size, codec2.length);
    ByteBuffer buf = ByteBuffer.wrap(codec2);
    assertEquals(codec1.length, buf.getInt());
    assertArrayEquals(codec1, Arrays.copyOfRange(codec2, 4, 4 + codec1.length));
    buf.position(4 + codec1.length);
    for (int i = 0; i < size; i++) {
      assertEquals(fingerprint(hashes.get(i)), buf.getShort(), "fingerprint of record " + i);
    }
    // Both decode to functions that agree on the bucket's keys.
    BucketFunction one = BucketFunction.fromBytes(1, codec1, 0, codec1.length, size, "t");
    BucketFunction two = BucketFunction.fromBytes(2, codec2, 0, codec2.length, size, "t");
    for (int i = 0; i < size; i++) {
      assertEquals(one.slotOf(hashes.get(i)), two.slotOf(hashes.get(i)));
    }
  }

  /**
   * A key that the trie maps to some record but whose fingerprint differs from that record's is
   * "not in this bucket" (-1) under codec 2; codec 1 returns the record number and leaves the
   * hash comparison to the caller. A key with a matching fingerprint (a false positive) gets
   * the record number under both.
   */
  @Test
  void fingerprintsAnswerMostAbsentKeysWithoutARecord() throws Exception {
    Random random = new Random(77);
    // A bucket this large passed about a third of absent keys when the fingerprint was taken
    // from the bits the keys are ordered by.
    int size = 20_000;
    List<NameHash> hashes = sortedHashes(random, size);
    BucketFunction plain = BucketFunction.buildHollowTrie(keys(hashes), false);
    BucketFunction printed = BucketFunction.buildHollowTrie(keys(hashes), true);
    int rejected = 0;
    int inRangeWithoutFingerprints = 0;
    for (int i = 0; i < 20_000; i++) {
      NameHash absent = new NameHash(random.nextLong(), random.nextLong());
      long slot = plain.slotOf(absent);
      long checked = printed.slotOf(absent);
      if (slot >= 0) {
        inRangeWithoutFingerprints++;
        if (fingerprint(hashes.get((int) slot)) == fingerprint(absent)) {
          assertEquals(slot, checked, "a matching fingerprint passes");
        } else {
          assertEquals(-1, checked, "a differing fingerprint is rejected");
          rejected++;
        }
      } else {
        assertEquals(-1, checked);
      }
    }
    assertTrue(inRangeWithoutFingerprints > 10_000, "codec 1 maps most absent keys somewhere");
    // About 1 in 65,536 passes whatever the bucket size: expected 0.3 of 20,000 here.
    int passed = inRangeWithoutFingerprints - rejected;
    assertTrue(passed <= 4, "false positives among " + inRangeWithoutFingerprints + ": " + passed);
    // The same key with one fingerprint bit changed is rejected; with other bits changed in the
    // low word (same trie path is not guaranteed) it is never mapped to a wrong record silently.
    for (int i = 0; i < size; i++) {
      NameHash key = hashes.get(i);
      NameHash otherPrint = new NameHash(key.high(), key.low() ^ (1L << 48));
      long slot = printed.slotOf(otherPrint);
      assertTrue(slot == -1 || fingerprint(hashes.get((int) slot)) == fingerprint(otherPrint),
          "key " + i);
    }
  }

  @Test
  void codec2SectionsWithImpossibleLengthsAreCorruption() throws Exception {
    Random random = new Random(5);
    List<NameHash> hashes = sortedHashes(random, 20);
    byte[] good = BucketFunction.buildHollowTrie(keys(hashes), true).toBytes();
    // Fewer or more fingerprints than records, a serialized length past the section, or
    // negative, or a section too short to hold the length itself.
    assertThrows(CorruptArchiveException.class,
        () -> BucketFunction.fromBytes(2, good, 0, good.length, 19, "t"));
    assertThrows(CorruptArchiveException.class,
        () -> BucketFunction.fromBytes(2, good, 0, good.length, 21, "t"));
    assertThrows(CorruptArchiveException.class,
        () -> BucketFunction.fromBytes(2, good, 0, good.length - 1, 20, "t"));
    for (int serialized : new int[] {-1, Integer.MIN_VALUE, Integer.MAX_VALUE, good.length,
        good.length - 4 - 40 + 1, good.length - 4 - 40 - 1}) {
      byte[] bad = good.clone();
      ByteBuffer.wrap(bad).putInt(0, serialized);
      assertThrows(CorruptArchiveException.class,
          () -> BucketFunction.fromBytes(2, bad, 0, bad.length, 20, "t"), "length " + serialized);
    }
    for (int length = 0; length < 4; length++) {
      int n = length;
      assertThrows(CorruptArchiveException.class,
          () -> BucketFunction.fromBytes(2, good, 0, n, 20, "t"), "section of " + n + " bytes");
    }
    // Codec 1 bytes given as codec 2 and the reverse, and unknown codecs.
    byte[] codec1 = BucketFunction.buildHollowTrie(keys(hashes), false).toBytes();
    assertThrows(CorruptArchiveException.class,
        () -> BucketFunction.fromBytes(2, codec1, 0, codec1.length, 20, "t"));
    assertThrows(CorruptArchiveException.class,
        () -> BucketFunction.fromBytes(1, good, 0, good.length, 20, "t"));
    for (int codec : new int[] {5, 255}) {
      assertThrows(CorruptArchiveException.class,
          () -> BucketFunction.fromBytes(codec, good, 0, good.length, 20, "t"));
    }
    // Codec 0 holds nothing.
    assertThrows(CorruptArchiveException.class,
        () -> BucketFunction.fromBytes(0, good, 0, good.length, 0, "t"));
    assertThrows(CorruptArchiveException.class,
        () -> BucketFunction.fromBytes(0, good, 0, 0, 1, "t"));
  }
}
