package org.hpf.internal.index;

import java.nio.ByteBuffer;
import java.util.List;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.NameHash;

/**
 * The order-preserving minimal perfect hash function of one bucket: maps the sorted 16-byte
 * name hashes of the bucket's records to their record numbers 0..n-1, in one of the function
 * codecs of docs/FORMAT.md, optionally with a 16-bit fingerprint per record.
 *
 * <p>Written with codec 3 ({@link DistinguishingBits}: 4.0 bits per key, every byte defined by
 * the format) or, with fingerprints, codec 4; codecs 1 and 2 (sux4j's hollow trie, Java
 * serialized) are still read. No I/O. For a key not in the bucket the result is arbitrary, so
 * callers compare the record's stored hash.
 */
public final class BucketFunction {
  /** Codec 0: an empty bucket, no function bytes. */
  public static final int CODEC_EMPTY = 0;
  /** Codec 1: Java serialization of a sux4j 5.4.1 HollowTrieMonotoneMinimalPerfectHashFunction. */
  public static final int CODEC_HOLLOW_TRIE = 1;
  /**
   * Codec 2: codec 1 plus a 16-bit fingerprint of each record's hash in slot order, so that a
   * lookup of a name the bucket lacks is answered in memory (false positive rate 2^-16) instead
   * of by a record read: used by the newer index layers, which most lookups pass through.
   */
  public static final int CODEC_HOLLOW_TRIE_FINGERPRINTS = 2;
  /** Codec 3: the distinguishing bit positions of neighbouring hashes (the format's own bytes). */
  public static final int CODEC_DISTINGUISHING_BITS = 3;
  /** Codec 4: codec 3 plus the fingerprints of codec 2, for the index layers above the base. */
  public static final int CODEC_DISTINGUISHING_BITS_FINGERPRINTS = 4;

  private final RankFunction function;
  private final int codec;
  private final int size;
  private final short[] fingerprints;

  private BucketFunction(RankFunction function, int codec, int size, short[] fingerprints) {
    this.function = function;
    this.codec = codec;
    this.size = size;
    this.fingerprints = fingerprints;
  }

  /**
   * Builds the function of codec 3 (4 with fingerprints) over distinct keys given in increasing
   * unsigned order (16-byte hashes).
   */
  public static BucketFunction build(List<byte[]> sortedKeys, boolean withFingerprints) {
    if (sortedKeys.isEmpty()) {
      return empty();
    }
    return new BucketFunction(DistinguishingBits.build(sortedKeys), withFingerprints
        ? CODEC_DISTINGUISHING_BITS_FINGERPRINTS : CODEC_DISTINGUISHING_BITS, sortedKeys.size(),
        withFingerprints ? fingerprints(sortedKeys) : null);
  }

  /**
   * Builds the function of codec 1 (2 with fingerprints), which hpf wrote before codec 3: for
   * tests of the archives it wrote, and to measure one codec against the other.
   */
  public static BucketFunction buildHollowTrie(List<byte[]> sortedKeys,
      boolean withFingerprints) {
    if (sortedKeys.isEmpty()) {
      return empty();
    }
    return new BucketFunction(HollowTrieFunction.build(sortedKeys), withFingerprints
        ? CODEC_HOLLOW_TRIE_FINGERPRINTS : CODEC_HOLLOW_TRIE, sortedKeys.size(),
        withFingerprints ? fingerprints(sortedKeys) : null);
  }

  private static BucketFunction empty() {
    return new BucketFunction(null, CODEC_EMPTY, 0, null);
  }

  private static short[] fingerprints(List<byte[]> sortedKeys) {
    short[] fingerprints = new short[sortedKeys.size()];
    for (int i = 0; i < fingerprints.length; i++) {
      fingerprints[i] = fingerprint(NameHash.of(sortedKeys.get(i), 0));
    }
    return fingerprints;
  }

  /**
   * The top 16 bits of the hash's low word. Not the high word's: keys are ordered by it, so an
   * absent key lands on a neighbour sharing its leading bits and would pass about n / 65536 of
   * the time. The directory uses at most the low 24 bits of the low word, so these 16 are free.
   */
  static short fingerprint(NameHash hash) {
    return (short) (hash.low() >>> 48);
  }

  /** Whether function sections of this codec end with a fingerprint per record. */
  public static boolean carriesFingerprints(int codec) {
    return codec == CODEC_HOLLOW_TRIE_FINGERPRINTS
        || codec == CODEC_DISTINGUISHING_BITS_FINGERPRINTS;
  }

  public int codec() {
    return codec;
  }

  public int size() {
    return size;
  }

  /** The record number of the key, in [0, size) for keys of the bucket; -1 if surely absent. */
  public long slotOf(NameHash hash) {
    if (function == null) {
      return -1;
    }
    long slot = function.rankOf(hash);
    if (slot < 0 || slot >= size) {
      return -1;
    }
    return fingerprints == null || fingerprints[(int) slot] == fingerprint(hash) ? slot : -1;
  }

  /** Bits the function occupies in memory, fingerprints included. */
  public long numBits() {
    return function == null ? 0 : function.numBits()
        + (fingerprints == null ? 0 : Short.SIZE * (long) fingerprints.length);
  }

  /**
   * The function section. Codec 2 frames the serialized function by its length; codec 4 needs
   * no frame, since codec 3's bytes say where they end.
   */
  public byte[] toBytes() {
    if (function == null) {
      return new byte[0];
    }
    byte[] bytes = function.toBytes();
    if (fingerprints == null) {
      return bytes;
    }
    boolean framed = codec == CODEC_HOLLOW_TRIE_FINGERPRINTS;
    ByteBuffer section = ByteBuffer.allocate((framed ? 4 : 0) + bytes.length
        + 2 * fingerprints.length);
    if (framed) {
      section.putInt(bytes.length);
    }
    section.put(bytes);
    for (short fingerprint : fingerprints) {
      section.putShort(fingerprint);
    }
    return section.array();
  }

  /** Restores a function from its (already checksum-verified) section bytes. */
  public static BucketFunction fromBytes(int codec, byte[] bytes, int offset, int length,
      int size, String file) throws CorruptArchiveException {
    switch (codec) {
      case CODEC_EMPTY:
        if (length != 0 || size != 0) {
          throw new CorruptArchiveException(file, 0, "empty-function codec with " + size
              + " records and " + length + " function bytes");
        }
        return empty();
      case CODEC_HOLLOW_TRIE:
        return new BucketFunction(HollowTrieFunction.read(bytes, offset, length, size, file),
            codec, size, null);
      case CODEC_HOLLOW_TRIE_FINGERPRINTS: {
        ByteBuffer section = ByteBuffer.wrap(bytes, offset, length);
        int serialized = length >= 4 ? section.getInt() : -1;
        if (serialized < 0 || (long) serialized + 4 + 2L * size != length) {
          throw new CorruptArchiveException(file, 0, "function section of " + length
              + " bytes cannot hold " + serialized + " function bytes and " + size
              + " fingerprints");
        }
        RankFunction trie = HollowTrieFunction.read(bytes, offset + 4, serialized, size, file);
        section.position(offset + 4 + serialized);
        return new BucketFunction(trie, codec, size, readFingerprints(section, size));
      }
      case CODEC_DISTINGUISHING_BITS:
      case CODEC_DISTINGUISHING_BITS_FINGERPRINTS: {
        ByteBuffer section = ByteBuffer.wrap(bytes, offset, length);
        RankFunction bits = DistinguishingBits.read(section, size, file);
        boolean printed = codec == CODEC_DISTINGUISHING_BITS_FINGERPRINTS;
        if (section.remaining() != (printed ? 2L * size : 0)) {
          throw new CorruptArchiveException(file, section.position(), "function section has "
              + section.remaining() + " bytes after its bit positions, expected "
              + (printed ? 2L * size : 0));
        }
        return new BucketFunction(bits, codec, size,
            printed ? readFingerprints(section, size) : null);
      }
      default:
        throw new CorruptArchiveException(file, 0, "unknown function codec " + codec);
    }
  }

  private static short[] readFingerprints(ByteBuffer section, int size) {
    short[] fingerprints = new short[size];
    for (int i = 0; i < size; i++) {
      fingerprints[i] = section.getShort();
    }
    return fingerprints;
  }
}
