package org.hpf.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.hpf.format.NameHash;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bucket function of every small size survives its codec: built over sorted hashes, written
 * to bytes and read back, it maps each hash to its rank. Size 1 is the case sux4j cannot
 * serialize on its own (its single-key trie holds a non-serializable empty bit vector).
 */
class BucketFunctionTest {

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3, 7, 64, 1000})
  void survivesItsCodec(int size) throws Exception {
    long seed = Long.getLong("hpf.test.seed", new SecureRandom().nextLong());
    Random random = new Random(seed ^ size);
    List<NameHash> hashes = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      hashes.add(new NameHash(random.nextLong(), random.nextLong()));
    }
    hashes.sort(null);
    List<byte[]> keys = new ArrayList<>();
    for (NameHash hash : hashes) {
      keys.add(hash.toBytes());
    }
    for (int i = 1; i < keys.size(); i++) {
      assertTrue(Arrays.compareUnsigned(keys.get(i - 1), keys.get(i)) < 0, "sorted keys");
    }
    BucketFunction built = BucketFunction.build(keys);
    byte[] bytes = built.toBytes();
    assertEquals(size == 0 ? BucketFunction.CODEC_EMPTY : BucketFunction.CODEC_HOLLOW_TRIE,
        built.codec());
    assertEquals(size == 0, bytes.length == 0, "function bytes of " + size + " keys");
    byte[] framed = new byte[bytes.length + 10];
    System.arraycopy(bytes, 0, framed, 5, bytes.length);
    BucketFunction read = BucketFunction.fromBytes(built.codec(), framed, 5, bytes.length, size,
        "test");
    assertEquals(size, read.size());
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
}
