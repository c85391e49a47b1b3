package org.hpf.index;

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
import org.hpf.format.NameHash;

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

  /** Only sux4j, its bit-vector and collection libraries, and boxed numbers may deserialize. */
  private static final ObjectInputFilter FILTER = ObjectInputFilter.Config.createFilter(
      "maxdepth=64;maxrefs=100000;maxarray=268435456;"
          + "it.unimi.dsi.**;java.lang.Number;java.lang.Long;java.lang.Integer;java.lang.Enum;!*");

  private final HollowTrieMonotoneMinimalPerfectHashFunction<byte[]> function;
  private final int size;

  private BucketFunction(HollowTrieMonotoneMinimalPerfectHashFunction<byte[]> function, int size) {
    this.function = function;
    this.size = size;
  }

  /** Builds the function over keys given in increasing unsigned order (16-byte hashes). */
  public static BucketFunction build(List<byte[]> sortedKeys) {
    if (sortedKeys.isEmpty()) {
      return new BucketFunction(null, 0);
    }
    return new BucketFunction(new HollowTrieMonotoneMinimalPerfectHashFunction<>(sortedKeys,
        TransformationStrategies.prefixFreeByteArray()), sortedKeys.size());
  }

  public int codec() {
    return function == null ? CODEC_EMPTY : CODEC_HOLLOW_TRIE;
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
    return slot >= 0 && slot < size ? slot : -1;
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
    return bytes.toByteArray();
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

  /** Restores a function from its (already checksum-verified) section bytes. */
  @SuppressWarnings("unchecked")
  public static BucketFunction fromBytes(int codec, byte[] bytes, int offset, int length,
      int size, String file) throws CorruptArchiveException {
    if (codec == CODEC_EMPTY) {
      if (length != 0 || size != 0) {
        throw new CorruptArchiveException(file, 0, "empty-function codec with " + size
            + " records and " + length + " function bytes");
      }
      return new BucketFunction(null, 0);
    }
    if (codec != CODEC_HOLLOW_TRIE) {
      throw new CorruptArchiveException(file, 0, "unknown function codec " + codec);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes, offset, length))) {
      in.setObjectInputFilter(FILTER);
      Object object = in.readObject();
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
      return new BucketFunction(typed, size);
    } catch (InvalidClassException e) {
      throw new CorruptArchiveException(file, "function section names a class that is not "
          + "allowed or not compatible (written by another sux4j version?)", e);
    } catch (IOException | ClassNotFoundException | RuntimeException e) {
      throw new CorruptArchiveException(file, "function section cannot be decoded", e);
    }
  }
}
