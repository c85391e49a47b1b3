package org.hpf.format;

import java.nio.ByteBuffer;
import org.hpf.CorruptArchiveException;
import org.hpf.LimitExceededException;

/**
 * The fixed 40-byte record of one member (docs/FORMAT.md, "Record"):
 * {@code H, Part:uint24, Flags:uint8, Offset:uint48, EntryLength:uint40, OriginalLength:uint40,
 * RecordChecksum:uint32}.
 */
public record IndexRecord(NameHash hash, int part, int flags, long offset, long entryLength,
    long originalLength) {
  public static final int SIZE = 40;
  public static final int MAX_PART = (1 << 24) - 1;
  public static final long MAX_OFFSET = (1L << 48) - 1;
  public static final long MAX_LENGTH = (1L << 40) - 1;
  /** Flag of a tombstone: the name was deleted; part, offset and lengths are 0. */
  public static final int DELETED = 0x80;

  public IndexRecord {
    if (part < 0 || part > MAX_PART || offset < 0 || offset > MAX_OFFSET || entryLength < 0
        || entryLength > MAX_LENGTH || originalLength < 0 || originalLength > MAX_LENGTH
        || flags < 0 || flags > 0xFF) {
      throw new IllegalArgumentException("record field out of range: part " + part + ", offset "
          + offset + ", entry length " + entryLength + ", length " + originalLength);
    }
  }

  /** Validates limits before a record is built from writer-side values. */
  public static void checkLimits(int part, long offset, long entryLength, long originalLength)
      throws LimitExceededException {
    if (part > MAX_PART) {
      throw new LimitExceededException("too many part files: " + part + " > " + MAX_PART);
    }
    if (offset > MAX_OFFSET) {
      throw new LimitExceededException("part offset " + offset + " exceeds 2^48 - 1");
    }
    if (entryLength > MAX_LENGTH || originalLength > MAX_LENGTH) {
      throw new LimitExceededException("member of " + originalLength
          + " bytes exceeds the format's limit of 2^40 - 1 bytes");
    }
  }

  /** A record that hides the name in older index layers. */
  public static IndexRecord tombstone(NameHash hash) {
    return new IndexRecord(hash, 0, DELETED, 0, 0, 0);
  }

  public boolean isTombstone() {
    return (flags & DELETED) != 0;
  }

  public Codec codec() {
    return Codec.ofFlags(flags);
  }

  public void writeTo(ByteBuffer buf) {
    int start = buf.position();
    buf.putLong(hash.high()).putLong(hash.low());
    buf.put((byte) (part >>> 16)).put((byte) (part >>> 8)).put((byte) part);
    buf.put((byte) flags);
    putUnsigned(buf, offset, 6);
    putUnsigned(buf, entryLength, 5);
    putUnsigned(buf, originalLength, 5);
    byte[] array = buf.array();
    buf.putInt(Checksums.crc32c(array, buf.arrayOffset() + start, SIZE - 4));
  }

  public byte[] toBytes() {
    ByteBuffer buf = ByteBuffer.allocate(SIZE);
    writeTo(buf);
    return buf.array();
  }

  /** Decodes and checks the record at {@code offset} of {@code bytes}. */
  public static IndexRecord read(byte[] bytes, int offset, String file, long fileOffset)
      throws CorruptArchiveException {
    int stored = ByteBuffer.wrap(bytes, offset + SIZE - 4, 4).getInt();
    int computed = Checksums.crc32c(bytes, offset, SIZE - 4);
    if (stored != computed) {
      throw new CorruptArchiveException(file, fileOffset, String.format(
          "record checksum 0x%08X, computed 0x%08X", stored, computed));
    }
    ByteBuffer buf = ByteBuffer.wrap(bytes, offset, SIZE);
    NameHash hash = new NameHash(buf.getLong(), buf.getLong());
    int part = ((buf.get() & 0xFF) << 16) | ((buf.get() & 0xFF) << 8) | (buf.get() & 0xFF);
    int flags = buf.get() & 0xFF;
    long off = getUnsigned(buf, 6);
    long entryLength = getUnsigned(buf, 5);
    long originalLength = getUnsigned(buf, 5);
    boolean tombstone = flags == DELETED && part == 0 && off == 0 && entryLength == 0
        && originalLength == 0;
    if (!tombstone && (Codec.ofFlags(flags) == null || (flags & ~Codec.MASK) != 0)) {
      throw new CorruptArchiveException(file, fileOffset + 19, "unknown record flags " + flags);
    }
    return new IndexRecord(hash, part, flags, off, entryLength, originalLength);
  }

  private static void putUnsigned(ByteBuffer buf, long value, int bytes) {
    for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) {
      buf.put((byte) (value >>> shift));
    }
  }

  private static long getUnsigned(ByteBuffer buf, int bytes) {
    long value = 0;
    for (int i = 0; i < bytes; i++) {
      value = (value << 8) | (buf.get() & 0xFF);
    }
    return value;
  }
}
