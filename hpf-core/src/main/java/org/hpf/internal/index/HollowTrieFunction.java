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
import java.io.UncheckedIOException;
import java.util.List;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.NameHash;

/**
 * The rank function of function codecs 1 and 2 (docs/FORMAT.md, "Function codecs"): the Java
 * serialization of a sux4j 5.4.1 hollow-trie monotone minimal perfect hash function. Still read,
 * no longer written by default: its bytes are defined by a library build, not by the format.
 * About 4.5 bits per key in memory (4.8 serialized), one evaluation of roughly 2 microseconds.
 */
final class HollowTrieFunction implements RankFunction {
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

  private HollowTrieFunction(HollowTrieMonotoneMinimalPerfectHashFunction<byte[]> function) {
    this.function = function;
  }

  /** Builds the function over keys given in increasing unsigned order (16-byte hashes). */
  static HollowTrieFunction build(List<byte[]> sortedKeys) {
    return new HollowTrieFunction(new HollowTrieMonotoneMinimalPerfectHashFunction<>(sortedKeys,
        TransformationStrategies.prefixFreeByteArray()));
  }

  @Override
  public long rankOf(NameHash hash) {
    return function.getLong(hash.toBytes());
  }

  @Override
  public long numBits() {
    return function.numBits();
  }

  @Override
  public byte[] toBytes() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new SerializableBitVectors(bytes)) {
      out.writeObject(function);
    } catch (IOException e) {
      throw new UncheckedIOException("serializing to memory", e);
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

  /** Restores a function from its (already checksum-verified) serialized bytes. */
  @SuppressWarnings("unchecked")
  static HollowTrieFunction read(byte[] bytes, int offset, int length, int size, String file)
      throws CorruptArchiveException {
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
      return new HollowTrieFunction(typed);
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
