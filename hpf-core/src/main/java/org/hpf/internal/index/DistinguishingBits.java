package org.hpf.internal.index;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.List;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.NameHash;

/**
 * The rank function of function codecs 3 and 4 (docs/FORMAT.md, "Distinguishing bits"): for
 * each two neighbouring hashes of the sorted bucket, the position of the first bit in which they
 * differ. These positions are the bucket's compacted binary trie: the smallest one in a range of
 * records is where the range splits into the hashes with a 0 there and those with a 1, so a
 * lookup descends from the whole bucket by testing the hash's bit at each range's smallest
 * position, never comparing it with a record. Nothing but these positions is stored.
 *
 * <p>Space: 4 bits per key (a position less a per-function base, in a nibble), a byte more per
 * position outside the base's 15 values (about 1 in 120 on random hashes: mostly the few
 * shallow positions of the trie's full top levels), and one byte: measured 4.07 bits per key at
 * 10^5 keys and 4.06 at 10^6, against 4.79 and 4.58 for codec 1. In memory a byte per key, and
 * 1/31 of that for the {@link RangeMinimum} levels. A lookup takes one range minimum per trie
 * level (about log2 n of them), each about a hundred comparisons: measured 3.3 us at 10^5 keys
 * and 6.6 at 10^6 (codec 1: 2.3 and 4.1). Building is one pass over the keys: 9 and 14 ms
 * (codec 1: 75 and 738 ms). See FunctionCodecTable in hpf-bench.
 */
final class DistinguishingBits implements RankFunction {
  /** The nibble that says a position is outside the base's values and follows the nibbles. */
  private static final int ESCAPE = 15;
  /** The largest base: base + 14 is still a bit position of a 128-bit hash. */
  static final int MAX_BASE = 127 - (ESCAPE - 1);
  /** An escaped position before its value is read: no bit position is negative. */
  private static final byte UNSET = -1;

  /** positions[i]: the first bit (0 = H's most significant) where hashes i and i + 1 differ. */
  private final byte[] positions;
  private final RangeMinimum minimum;

  private DistinguishingBits(byte[] positions) {
    this.positions = positions;
    this.minimum = new RangeMinimum(positions);
  }

  /** Builds the function over distinct keys given in increasing unsigned order (16 bytes). */
  static DistinguishingBits build(List<byte[]> sortedKeys) {
    byte[] positions = new byte[Math.max(0, sortedKeys.size() - 1)];
    for (int i = 0; i < positions.length; i++) {
      NameHash a = NameHash.of(sortedKeys.get(i), 0);
      NameHash b = NameHash.of(sortedKeys.get(i + 1), 0);
      if (a.compareTo(b) >= 0) {
        throw new IllegalArgumentException("keys " + i + " and " + (i + 1) + " are not in "
            + "increasing order: " + a + ", " + b);
      }
      positions[i] = (byte) firstDifference(a, b);
    }
    return new DistinguishingBits(positions);
  }

  /** The first bit, counted from H's most significant, in which two different hashes differ. */
  static int firstDifference(NameHash a, NameHash b) {
    long high = a.high() ^ b.high();
    return high != 0 ? Long.numberOfLeadingZeros(high)
        : 64 + Long.numberOfLeadingZeros(a.low() ^ b.low());
  }

  private static boolean bit(NameHash hash, int position) {
    return position < 64 ? (hash.high() << position) < 0 : (hash.low() << (position - 64)) < 0;
  }

  @Override
  public long rankOf(NameHash hash) {
    int low = 0;
    int high = positions.length; // ranks low..high; positions low..high - 1 lie between them
    while (low < high) {
      int split = minimum.leftmostMinimum(low, high);
      if (bit(hash, positions[split])) {
        low = split + 1;
      } else {
        high = split;
      }
    }
    return low;
  }

  @Override
  public long numBits() {
    return 8L * (positions.length + minimum.summaryEntries());
  }

  /**
   * {@code Base:uint8, Nibble^(n-1) packed two to a byte (the first in the high half, a last
   * odd one followed by 0), Escaped:uint8^E}: each escaped position, in order, where E is the
   * number of nibbles equal to 15.
   */
  @Override
  public byte[] toBytes() {
    int base = bestBase(positions);
    int escaped = 0;
    for (byte position : positions) {
      escaped += escaped(position, base) ? 1 : 0;
    }
    ByteBuffer out = ByteBuffer.allocate(1 + nibbleBytes(positions.length) + escaped);
    out.put((byte) base);
    for (int i = 0; i < positions.length; i += 2) {
      int first = nibble(positions[i], base);
      int second = i + 1 < positions.length ? nibble(positions[i + 1], base) : 0;
      out.put((byte) (first << 4 | second));
    }
    for (byte position : positions) {
      if (escaped(position, base)) {
        out.put(position);
      }
    }
    return out.array();
  }

  /** The base whose 15 values hold the most positions: the lowest such, so the choice is fixed. */
  private static int bestBase(byte[] positions) {
    int[] counts = new int[128];
    for (byte position : positions) {
      counts[position]++;
    }
    int best = 0;
    int bestHeld = -1;
    for (int base = 0; base <= MAX_BASE; base++) {
      int held = 0;
      for (int v = 0; v < ESCAPE; v++) {
        held += counts[base + v];
      }
      if (held > bestHeld) {
        best = base;
        bestHeld = held;
      }
    }
    return best;
  }

  private static boolean escaped(int position, int base) {
    return position < base || position - base >= ESCAPE;
  }

  private static int nibble(int position, int base) {
    return escaped(position, base) ? ESCAPE : position - base;
  }

  private static int nibbleBytes(int count) {
    return (count + 1) / 2;
  }

  /**
   * Reads the function of {@code size} keys from {@code section} at its position, leaving it
   * after the function's bytes. Allocates only what the section's remaining bytes hold, and
   * refuses positions that no sorted set of distinct hashes has (two equal positions with no
   * smaller one between), so a function that decodes is the trie of some set of hashes.
   */
  static DistinguishingBits read(ByteBuffer section, int size, String file)
      throws CorruptArchiveException {
    int start = section.position();
    int count = size - 1;
    if (size < 1 || 1L + nibbleBytes(count) > section.remaining()) {
      throw new CorruptArchiveException(file, start, "function section of "
          + section.remaining() + " bytes cannot hold the bit positions of " + size + " keys");
    }
    try {
      int base = section.get() & 0xFF;
      if (base > MAX_BASE) {
        throw new CorruptArchiveException(file, start, "bit position base " + base
            + " is above " + MAX_BASE);
      }
      byte[] positions = new byte[count];
      for (int i = 0; i < count; i += 2) {
        int packed = section.get() & 0xFF;
        positions[i] = (byte) (packed >>> 4);
        if (i + 1 < count) {
          positions[i + 1] = (byte) (packed & 0xF);
        } else if ((packed & 0xF) != 0) {
          throw new CorruptArchiveException(file, section.position() - 1, "the nibble after "
              + "the last bit position is " + (packed & 0xF) + ", not 0");
        }
      }
      for (int i = 0; i < count; i++) {
        if (positions[i] == ESCAPE) {
          positions[i] = UNSET; // until its escaped value is read
        } else {
          positions[i] += (byte) base;
        }
      }
      for (int i = 0; i < count; i++) {
        if (positions[i] == UNSET) {
          int position = section.get() & 0xFF;
          if (position > 127 || !escaped(position, base)) {
            throw new CorruptArchiveException(file, section.position() - 1, "escaped bit "
                + "position " + position + " of position " + i + " is not outside the base's "
                + ESCAPE + " values from " + base + ", or is past bit 127");
          }
          positions[i] = (byte) position;
        }
      }
      checkIsATrie(positions, file, start);
      return new DistinguishingBits(positions);
    } catch (BufferUnderflowException e) {
      throw new CorruptArchiveException(file, "function section ends inside its bit positions",
          e);
    }
  }

  /**
   * Neighbouring hashes i and i + 1 differ first at bit p when i has a 0 there and i + 1 a 1;
   * if j > i had the same p with no smaller position between, hash i + 1 would share bit p with
   * hash j and so have a 1 there too: such positions are no trie.
   */
  private static void checkIsATrie(byte[] positions, String file, int offset)
      throws CorruptArchiveException {
    byte[] rising = new byte[129]; // strictly increasing, so at most one entry per bit position
    int depth = 0;
    for (int i = 0; i < positions.length; i++) {
      byte position = positions[i];
      while (depth > 0 && rising[depth - 1] > position) {
        depth--;
      }
      if (depth > 0 && rising[depth - 1] == position) {
        throw new CorruptArchiveException(file, offset, "bit position " + position + " at "
            + i + " repeats an earlier one with no smaller position between: no set of sorted "
            + "hashes has these positions");
      }
      rising[depth++] = position;
    }
  }
}
