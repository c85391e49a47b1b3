package org.hpf.format;

/**
 * Where a member's entry is: its part, its record flags (the codec), the entry's offset in the
 * part and its length. Names segments of version 2 carry it, so a listing with block locations
 * needs no index lookup.
 */
public record EntryLocation(int part, int flags, long offset, long entryLength) {
  /** Bytes of a location in a names entry: Part:uint24, Flags:uint8, Offset:uint40, EntryLength:uint40. */
  public static final int SIZE = 14;

  public static EntryLocation of(IndexRecord record) {
    return new EntryLocation(record.part(), record.flags(), record.offset(),
        record.entryLength());
  }

  public Codec codec() {
    return Codec.ofFlags(flags);
  }
}
