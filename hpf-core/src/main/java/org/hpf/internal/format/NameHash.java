package org.hpf.internal.format;

import java.nio.ByteBuffer;
import java.util.HexFormat;

/**
 * The 128-bit hash {@code H} of a member name: 16 bytes, compared as unsigned bytes. The
 * directory uses the low bits of {@link #low()} (bytes 8..15 as a big-endian long).
 */
public record NameHash(long high, long low) implements Comparable<NameHash> {
  public static final int BYTES = 16;

  public static NameHash of(byte[] bytes, int offset) {
    ByteBuffer buf = ByteBuffer.wrap(bytes, offset, BYTES);
    return new NameHash(buf.getLong(), buf.getLong());
  }

  public byte[] toBytes() {
    return ByteBuffer.allocate(BYTES).putLong(high).putLong(low).array();
  }

  @Override
  public int compareTo(NameHash other) {
    int c = Long.compareUnsigned(high, other.high);
    return c != 0 ? c : Long.compareUnsigned(low, other.low);
  }

  @Override
  public String toString() {
    return HexFormat.of().toHexDigits(high) + HexFormat.of().toHexDigits(low);
  }
}
