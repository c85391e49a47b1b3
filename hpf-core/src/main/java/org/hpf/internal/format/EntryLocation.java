package org.hpf.internal.format;

import java.nio.ByteBuffer;

/**
 * Where a member's entry is: its part, its record flags (the codec), the entry's offset in the
 * part and its length. Names segments of version 2 carry it, so a listing with block locations
 * needs no index lookup.
 */
public record EntryLocation(int part, int flags, long offset, long entryLength) {
  /** Bytes of a location in a names entry. */
  public static final int SIZE = 14;

  public static EntryLocation of(IndexRecord record) {
    return new EntryLocation(record.part(), record.flags(), record.offset(),
        record.entryLength());
  }

  public Codec codec() {
    return Codec.ofFlags(flags);
  }

  /** Writes Part:uint24, Flags:uint8, Offset:uint40, EntryLength:uint40. */
  public void writeTo(ByteBuffer buf) {
    IndexRecord.putUnsigned(buf, part, 3);
    buf.put((byte) flags);
    IndexRecord.putUnsigned(buf, offset, 5);
    IndexRecord.putUnsigned(buf, entryLength, 5);
  }

  /** Reads what {@link #writeTo} wrote (unchecked: the caller checks it). */
  public static EntryLocation read(ByteBuffer buf) {
    int part = (int) IndexRecord.getUnsigned(buf, 3);
    int flags = buf.get() & 0xFF;
    long offset = IndexRecord.getUnsigned(buf, 5);
    return new EntryLocation(part, flags, offset, IndexRecord.getUnsigned(buf, 5));
  }
}
