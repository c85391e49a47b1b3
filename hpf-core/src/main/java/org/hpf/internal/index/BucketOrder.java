package org.hpf.internal.index;

import java.util.Comparator;
import org.hpf.internal.format.NameHash;

/**
 * The order in which a writer streams index records: by the bits of the hash's low word from
 * bit 0 up (the bits the directory uses, in the order it uses them), then by the high word. In
 * this order every extendible-hashing bucket, the records whose low {@code d} bits equal its
 * prefix, is one contiguous run, and a bucket's two halves after a split follow each other (bit
 * {@code d} = 0 first). So a whole layer can be built, merged or read back one bucket at a time.
 */
public final class BucketOrder {
  /** Hashes in bucket order. */
  public static final Comparator<NameHash> HASHES = BucketOrder::compare;

  private BucketOrder() {}

  public static int compare(NameHash a, NameHash b) {
    int c = Long.compareUnsigned(Long.reverse(a.low()), Long.reverse(b.low()));
    return c != 0 ? c : Long.compareUnsigned(a.high(), b.high());
  }

  /** Compares two hashes stored as 16 big-endian bytes (high word, then low word). */
  public static int compare(byte[] a, int aOffset, byte[] b, int bOffset) {
    int c = Long.compareUnsigned(Long.reverse(word(a, aOffset + 8)),
        Long.reverse(word(b, bOffset + 8)));
    return c != 0 ? c : Long.compareUnsigned(word(a, aOffset), word(b, bOffset));
  }

  /** True when the hash lies in the bucket of this prefix and depth. */
  public static boolean inBucket(NameHash hash, int prefix, int depth) {
    return (hash.low() & ((1L << depth) - 1)) == prefix;
  }

  /**
   * Orders disjoint buckets as their records are ordered: by their prefix bits from bit 0 up.
   * (A bucket's prefix has no bits at or above its depth, so comparing reversed prefixes works
   * for buckets of different depths.)
   */
  public static int compareBuckets(int prefixA, int prefixB) {
    return Integer.compareUnsigned(Integer.reverse(prefixA), Integer.reverse(prefixB));
  }

  private static long word(byte[] bytes, int offset) {
    long value = 0;
    for (int i = 0; i < 8; i++) {
      value = (value << 8) | (bytes[offset + i] & 0xFF);
    }
    return value;
  }
}
