package org.hpf.internal.format;

import java.nio.ByteBuffer;
import org.hpf.CorruptArchiveException;
import org.hpf.LimitExceededException;

/**
 * The fixed 40-byte record of one member (docs/FORMAT.md, "Record"). Index files of version 2
 * store {@code H, PartFlags:uint24, Offset:uint40, EntryLength:uint40, OriginalLength:uint40,
 * MTimeMillis:int48} in groups checked by one checksum each (see {@link RecordLayout}); version 1
 * index files and journals store {@code H, Part:uint24, Flags:uint8, Offset:uint48,
 * EntryLength:uint40, OriginalLength:uint40, RecordChecksum:uint32}, without the time.
 *
 * @param mtimeMillis the member's modification time, or {@link #MTIME_UNKNOWN} for a record read
 *     from a version 1 index file (whose entry holds the time) and for tombstones
 * @param access the member's access class: its 1-based position in the manifest's dictionary,
 *     or 0 when not recorded (older formats, tombstones). Index files of version 3 store it
 *     after each group of records, or once in their header ({@link RecordLayout})
 */
public record IndexRecord(NameHash hash, int part, int flags, long offset, long entryLength,
    long originalLength, long mtimeMillis, int access) {
  public static final int SIZE = 40;
  /** Limits of the version 2 record, which every writer now writes. */
  public static final int MAX_PART = (1 << 21) - 1;
  public static final long MAX_OFFSET = (1L << 40) - 1;
  public static final long MAX_LENGTH = (1L << 40) - 1;
  /** Limits of the version 1 record, which older index files hold. */
  private static final int MAX_PART_V1 = (1 << 24) - 1;
  private static final long MAX_OFFSET_V1 = (1L << 48) - 1;
  /** Flag of a tombstone: the name was deleted; part, offset and lengths are 0. */
  public static final int DELETED = 0x80;
  /** The modification time of a record that does not carry one. */
  public static final long MTIME_UNKNOWN = Long.MIN_VALUE;
  /** MTimeMillis in a version 2 record that carries no time: the least int48. */
  private static final long MTIME_ABSENT = -(1L << 47);
  private static final int TOMBSTONE_V2 = 0x4;
  /** The largest access id: ids are uint16. */
  public static final int MAX_ACCESS = 0xFFFF;

  public IndexRecord {
    if (part < 0 || part > MAX_PART_V1 || offset < 0 || offset > MAX_OFFSET_V1
        || entryLength < 0 || entryLength > MAX_LENGTH || originalLength < 0
        || originalLength > MAX_LENGTH || flags < 0 || flags > 0xFF || access < 0
        || access > MAX_ACCESS) {
      throw new IllegalArgumentException("record field out of range: part " + part + ", offset "
          + offset + ", entry length " + entryLength + ", length " + originalLength
          + ", access " + access);
    }
  }

  /** A record without an access class. */
  public IndexRecord(NameHash hash, int part, int flags, long offset, long entryLength,
      long originalLength, long mtimeMillis) {
    this(hash, part, flags, offset, entryLength, originalLength, mtimeMillis, 0);
  }

  /** A record without a modification time. */
  public IndexRecord(NameHash hash, int part, int flags, long offset, long entryLength,
      long originalLength) {
    this(hash, part, flags, offset, entryLength, originalLength, MTIME_UNKNOWN);
  }

  /** Validates limits before a record is built from writer-side values. */
  public static void checkLimits(int part, long offset, long entryLength, long originalLength)
      throws LimitExceededException {
    if (part > MAX_PART) {
      throw new LimitExceededException("too many part files: " + part + " > " + MAX_PART);
    }
    if (offset > MAX_OFFSET) {
      throw new LimitExceededException("part offset " + offset
          + " exceeds 2^40 - 1; use a smaller part size");
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

  public boolean hasMtime() {
    return mtimeMillis != MTIME_UNKNOWN;
  }

  public Codec codec() {
    return Codec.ofFlags(flags);
  }

  /** This record pointing at a copy of its entry. */
  public IndexRecord movedTo(int newPart, long newOffset) {
    return new IndexRecord(hash, newPart, flags, newOffset, entryLength, originalLength,
        mtimeMillis, access);
  }

  /** This record with the modification time its entry or journal holds. */
  public IndexRecord withMtime(long mtime) {
    return new IndexRecord(hash, part, flags, offset, entryLength, originalLength, mtime,
        access);
  }

  /** This record with access class {@code id}. */
  public IndexRecord withAccess(int id) {
    return new IndexRecord(hash, part, flags, offset, entryLength, originalLength, mtimeMillis,
        id);
  }

  /** Writes the version 1 encoding (journals, and the writer's scratch files). */
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

  /** Decodes and checks the version 1 record at {@code offset} of {@code bytes}. */
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

  /**
   * Writes the version 2 encoding (no checksum of its own: its group has one).
   *
   * @throws LimitExceededException if the record is a version 1 record beyond version 2's limits
   */
  public void writeV2(ByteBuffer buf) throws LimitExceededException {
    checkLimits(part, offset, entryLength, originalLength);
    buf.putLong(hash.high()).putLong(hash.low());
    int flags3 = isTombstone() ? TOMBSTONE_V2 : flags & Codec.MASK;
    putUnsigned(buf, ((long) part << 3) | flags3, 3);
    putUnsigned(buf, offset, 5);
    putUnsigned(buf, entryLength, 5);
    putUnsigned(buf, originalLength, 5);
    boolean fits = mtimeMillis > MTIME_ABSENT && mtimeMillis < -MTIME_ABSENT;
    putUnsigned(buf, fits ? mtimeMillis : MTIME_ABSENT, 6);
  }

  /** Decodes the version 2 record at {@code offset} of {@code bytes} (its group is checked). */
  public static IndexRecord readV2(byte[] bytes, int offset, String file, long fileOffset)
      throws CorruptArchiveException {
    ByteBuffer buf = ByteBuffer.wrap(bytes, offset, SIZE);
    NameHash hash = new NameHash(buf.getLong(), buf.getLong());
    int partFlags = (int) getUnsigned(buf, 3);
    int part = partFlags >>> 3;
    int flags3 = partFlags & 0x7;
    long off = getUnsigned(buf, 5);
    long entryLength = getUnsigned(buf, 5);
    long originalLength = getUnsigned(buf, 5);
    long mtime = getUnsigned(buf, 6) << 16 >> 16; // sign-extend the int48
    if (flags3 == TOMBSTONE_V2) {
      if (part != 0 || off != 0 || entryLength != 0 || originalLength != 0
          || mtime != MTIME_ABSENT) {
        throw new CorruptArchiveException(file, fileOffset + 16,
            "tombstone record with a location");
      }
      return tombstone(hash);
    }
    if (Codec.ofFlags(flags3) == null || (flags3 & ~Codec.MASK) != 0) {
      throw new CorruptArchiveException(file, fileOffset + 16, "unknown record flags " + flags3);
    }
    return new IndexRecord(hash, part, flags3, off, entryLength, originalLength,
        mtime == MTIME_ABSENT ? MTIME_UNKNOWN : mtime);
  }

  /**
   * The writer's scratch form: the version 1 encoding, then the time (8 bytes) and the access
   * id (2 bytes).
   */
  public byte[] toScratchBytes() {
    ByteBuffer buf = ByteBuffer.allocate(SIZE + 10);
    writeTo(buf);
    return buf.putLong(mtimeMillis).putShort((short) access).array();
  }

  public static IndexRecord fromScratchBytes(byte[] bytes, String source)
      throws CorruptArchiveException {
    ByteBuffer tail = ByteBuffer.wrap(bytes, SIZE, 10);
    return read(bytes, 0, source, 0).withMtime(tail.getLong())
        .withAccess(tail.getShort() & 0xFFFF);
  }

  /** Puts the low {@code bytes} bytes of {@code value}, big-endian. */
  static void putUnsigned(ByteBuffer buf, long value, int bytes) {
    for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) {
      buf.put((byte) (value >>> shift));
    }
  }

  /** Gets a big-endian unsigned integer of {@code bytes} bytes. */
  static long getUnsigned(ByteBuffer buf, int bytes) {
    long value = 0;
    for (int i = 0; i < bytes; i++) {
      value = (value << 8) | (buf.get() & 0xFF);
    }
    return value;
  }
}
