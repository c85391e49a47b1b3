package org.hpf.internal.index;

import it.unimi.dsi.bits.BitVector;
import it.unimi.dsi.bits.LongArrayBitVector;
import it.unimi.dsi.bits.TransformationStrategies;
import it.unimi.dsi.sux4j.mph.HollowTrieMonotoneMinimalPerfectHashFunction;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.NameHash;

/**
 * The order-preserving minimal perfect hash function of one bucket: maps the sorted 16-byte
 * name hashes of the bucket's records to their record numbers 0..n-1.
 *
 * <p>Built with sux4j's hollow-trie monotone MPHF: about 4.5 bits per key at 10^5..10^6 keys
 * (measured; see docs/FORMAT.md), one evaluation of roughly 2 microseconds, no I/O. For a key
 * not in the bucket the result is arbitrary, so callers compare the record's stored hash.
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

  /**
   * The classes a serialized function is made of (sux4j 5.4.1, functions of 1 to 100,000 keys,
   * with and without fingerprints), and nothing else: an archive may come from anyone who can
   * write to the cluster, and its checksums guard against damage, not against a crafted file.
   */
  private static final java.util.Set<String> FUNCTION_CLASSES = java.util.Set.of(
      "it.unimi.dsi.sux4j.mph.HollowTrieMonotoneMinimalPerfectHashFunction",
      "it.unimi.dsi.sux4j.mph.AbstractHashFunction",
      "it.unimi.dsi.fastutil.objects.AbstractObject2LongFunction",
      org.hpf.internal.index.serial.LongArrayBitVector.class.getName(),
      "it.unimi.dsi.bits.LongArrayBitVector", // what the above resolves to
      "it.unimi.dsi.bits.TransformationStrategies$ByteArrayTransformationStrategy",
      "it.unimi.dsi.sux4j.bits.AbstractRank",
      "it.unimi.dsi.sux4j.bits.JacobsonBalancedParentheses",
      "it.unimi.dsi.sux4j.bits.SimpleSelect",
      "it.unimi.dsi.sux4j.bits.SimpleSelectZero",
      "it.unimi.dsi.sux4j.bits.SparseRank",
      "it.unimi.dsi.sux4j.bits.SparseSelect",
      "it.unimi.dsi.sux4j.util.EliasFanoLongBigList",
      "it.unimi.dsi.sux4j.util.EliasFanoMonotoneLongBigList");

  /**
   * Admits only the function's classes and {@code long[]} (its bit vectors' words), at most 64
   * objects deep and 100,000 references; an array only as long as the stream's remaining bytes
   * could fill, so a crafted length cannot allocate more than the section holds.
   */
  private static ObjectInputFilter filter(long streamLength) {
    return info -> {
      if (info.depth() > 64 || info.references() > 100_000) {
        return ObjectInputFilter.Status.REJECTED;
      }
      Class<?> type = info.serialClass();
      if (type == null) {
        return ObjectInputFilter.Status.UNDECIDED;
      }
      if (type.isArray()) {
        // Called once for the class (length -1), then for each array with its length.
        boolean fits = type == long[].class && (info.arrayLength() < 0
            || info.arrayLength() * Long.BYTES <= streamLength - info.streamBytes());
        return fits ? ObjectInputFilter.Status.ALLOWED : ObjectInputFilter.Status.REJECTED;
      }
      return FUNCTION_CLASSES.contains(type.getName()) ? ObjectInputFilter.Status.ALLOWED
          : ObjectInputFilter.Status.REJECTED;
    };
  }

  private final HollowTrieMonotoneMinimalPerfectHashFunction<byte[]> function;
  private final int size;
  private final short[] fingerprints;

  private BucketFunction(HollowTrieMonotoneMinimalPerfectHashFunction<byte[]> function, int size,
      short[] fingerprints) {
    this.function = function;
    this.size = size;
    this.fingerprints = fingerprints;
  }

  /**
   * Builds the function over keys given in increasing unsigned order (16-byte hashes), with
   * fingerprints if asked.
   */
  public static BucketFunction build(List<byte[]> sortedKeys, boolean withFingerprints) {
    if (sortedKeys.isEmpty()) {
      return new BucketFunction(null, 0, null);
    }
    short[] fingerprints = null;
    if (withFingerprints) {
      fingerprints = new short[sortedKeys.size()];
      for (int i = 0; i < fingerprints.length; i++) {
        fingerprints[i] = fingerprint(NameHash.of(sortedKeys.get(i), 0));
      }
    }
    return new BucketFunction(new HollowTrieMonotoneMinimalPerfectHashFunction<>(sortedKeys,
        TransformationStrategies.prefixFreeByteArray()), sortedKeys.size(), fingerprints);
  }

  /**
   * The top 16 bits of the hash's low word. Not the high word's: keys are ordered by it, so an
   * absent key lands on a neighbour sharing its leading bits and would pass about n / 65536 of
   * the time. The directory uses at most the low 24 bits of the low word, so these 16 are free.
   */
  static short fingerprint(NameHash hash) {
    return (short) (hash.low() >>> 48);
  }

  public int codec() {
    if (function == null) {
      return CODEC_EMPTY;
    }
    return fingerprints == null ? CODEC_HOLLOW_TRIE : CODEC_HOLLOW_TRIE_FINGERPRINTS;
  }

  public int size() {
    return size;
  }

  /** The record number of the key, in [0, size) for keys of the bucket; -1 if surely absent. */
  public long slotOf(NameHash hash) {
    if (function == null) {
      return -1;
    }
    long slot = function.getLong(hash.toBytes());
    if (slot < 0 || slot >= size) {
      return -1;
    }
    return fingerprints == null || fingerprints[(int) slot] == fingerprint(hash) ? slot : -1;
  }

  /** Bits the function occupies in memory, as sux4j counts them. */
  public long numBits() {
    return function == null ? 0 : function.numBits();
  }

  public byte[] toBytes() throws IOException {
    if (function == null) {
      return new byte[0];
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new SerializableBitVectors(bytes)) {
      out.writeObject(function);
    }
    if (fingerprints == null) {
      return bytes.toByteArray();
    }
    java.nio.ByteBuffer section = java.nio.ByteBuffer.allocate(4 + bytes.size()
        + 2 * fingerprints.length);
    section.putInt(bytes.size()).put(bytes.toByteArray());
    for (short fingerprint : fingerprints) {
      section.putShort(fingerprint);
    }
    return section.array();
  }

  /**
   * sux4j builds the function of a single key over {@code BitVectors.EMPTY_VECTOR}, which is not
   * {@link java.io.Serializable}; this stream writes such bit vectors as the equal (and allowed)
   * {@link LongArrayBitVector}, so the function deserializes and evaluates the same.
   */
  private static final class SerializableBitVectors extends ObjectOutputStream {
    SerializableBitVectors(ByteArrayOutputStream out) throws IOException {
      super(out);
      enableReplaceObject(true);
    }

    @Override
    protected Object replaceObject(Object object) {
      if (object instanceof BitVector vector && !(object instanceof java.io.Serializable)) {
        return LongArrayBitVector.copy(vector);
      }
      return object;
    }
  }

  /**
   * Deserializes a function section, reading bit vectors through
   * {@link org.hpf.internal.index.serial.LongArrayBitVector}, which allocates their words only
   * within the section's bytes.
   */
  private static final class FunctionInput extends ObjectInputStream {
    FunctionInput(byte[] bytes, int offset, int length) throws IOException {
      super(new ByteArrayInputStream(bytes, offset, length));
    }

    @Override
    protected Class<?> resolveClass(java.io.ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      if (desc.getName().equals(it.unimi.dsi.bits.LongArrayBitVector.class.getName())) {
        return org.hpf.internal.index.serial.LongArrayBitVector.class;
      }
      return super.resolveClass(desc);
    }
  }

  /** Restores a function from its (already checksum-verified) section bytes. */
  @SuppressWarnings("unchecked")
  public static BucketFunction fromBytes(int codec, byte[] bytes, int offset, int length,
      int size, String file) throws CorruptArchiveException {
    if (codec == CODEC_EMPTY) {
      if (length != 0 || size != 0) {
        throw new CorruptArchiveException(file, 0, "empty-function codec with " + size
            + " records and " + length + " function bytes");
      }
      return new BucketFunction(null, 0, null);
    }
    short[] fingerprints = null;
    if (codec == CODEC_HOLLOW_TRIE_FINGERPRINTS) {
      java.nio.ByteBuffer section = java.nio.ByteBuffer.wrap(bytes, offset, length);
      int serialized = length >= 4 ? section.getInt() : -1;
      if (serialized < 0 || (long) serialized + 4 + 2L * size != length) {
        throw new CorruptArchiveException(file, 0, "function section of " + length + " bytes "
            + "cannot hold " + serialized + " function bytes and " + size + " fingerprints");
      }
      section.position(offset + 4 + serialized);
      fingerprints = new short[size];
      for (int i = 0; i < size; i++) {
        fingerprints[i] = section.getShort();
      }
      offset += 4;
      length = serialized;
    } else if (codec != CODEC_HOLLOW_TRIE) {
      throw new CorruptArchiveException(file, 0, "unknown function codec " + codec);
    }
    try (ObjectInputStream in = new FunctionInput(bytes, offset, length)) {
      in.setObjectInputFilter(filter(length));
      Object object = org.hpf.internal.index.serial.LongArrayBitVector.withBudget(length,
          in::readObject);
      if (!(object instanceof HollowTrieMonotoneMinimalPerfectHashFunction<?> function)) {
        throw new CorruptArchiveException(file, 0, "function section holds a "
            + object.getClass().getName());
      }
      HollowTrieMonotoneMinimalPerfectHashFunction<byte[]> typed =
          (HollowTrieMonotoneMinimalPerfectHashFunction<byte[]>) function;
      if (typed.size64() != size) {
        throw new CorruptArchiveException(file, 0, "function maps " + typed.size64()
            + " keys, the bucket has " + size + " records");
      }
      return new BucketFunction(typed, size, fingerprints);
    } catch (InvalidClassException e) {
      throw new CorruptArchiveException(file, "function section names a class a function is "
          + "not made of, or an array longer than its bytes could hold (a crafted or damaged "
          + "file, or one written by another sux4j version)", e);
    } catch (IOException | ClassNotFoundException | RuntimeException | AssertionError e) {
      // AssertionError: sux4j's own checks of what it reads, where assertions are on.
      throw new CorruptArchiveException(file, "function section cannot be decoded", e);
    }
  }
}
