package org.hpf.internal.index.serial;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamException;
import java.io.Serializable;

/**
 * Reads the serialized form of dsiutils' {@code it.unimi.dsi.bits.LongArrayBitVector} in its
 * place, and resolves to one: the bit vector's own {@code readObject} allocates the words its
 * serialized {@code length} field declares before reading any, so a crafted length could make a
 * reader allocate gigabytes. Here the words are allocated only within a budget: the bytes of the
 * function section being read. The reader of function sections substitutes this class for the
 * original (Java serialization matches a class by its simple name and serialVersionUID).
 *
 * <p>Not for use outside that reader.
 */
public final class LongArrayBitVector implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final ThreadLocal<long[]> BUDGET = new ThreadLocal<>();

  /** The serialized field, as dsiutils names it. */
  private long length;
  private transient long[] bits;

  private LongArrayBitVector() {}

  /**
   * Runs {@code read} with {@code bytes} as the budget of every bit vector it deserializes on
   * this thread.
   */
  public static <T> T withBudget(long bytes, IoSupplier<T> read)
      throws IOException, ClassNotFoundException {
    long[] previous = BUDGET.get();
    BUDGET.set(new long[] {bytes});
    try {
      return read.get();
    } finally {
      BUDGET.set(previous);
    }
  }

  /** A read that may fail as deserialization does. */
  @FunctionalInterface
  public interface IoSupplier<T> {
    T get() throws IOException, ClassNotFoundException;
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    long[] budget = BUDGET.get();
    long words = (length + Long.SIZE - 1) / Long.SIZE;
    if (length < 0 || budget == null || words * Long.BYTES > budget[0]) {
      throw new InvalidObjectException("bit vector of " + length + " bits is longer than its "
          + "section's bytes could hold");
    }
    budget[0] -= words * Long.BYTES;
    bits = new long[(int) words];
    for (int i = 0; i < bits.length; i++) {
      bits[i] = in.readLong();
    }
  }

  private Object readResolve() throws ObjectStreamException {
    return it.unimi.dsi.bits.LongArrayBitVector.wrap(bits, length);
  }
}
