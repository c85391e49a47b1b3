package org.hpf.internal.format;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.hpf.CorruptArchiveException;

/**
 * The header of a member's entry in a part file (docs/FORMAT.md, "Part"):
 * {@code EntryMagic, Flags, Layout, NameLength, OriginalLength, StoredLength, MTimeMillis, Name,
 * HeaderChecksum}. The stored bytes follow it, then (layout {@link #CHUNKED}) the chunk checksums,
 * then a 4-byte content checksum.
 */
public record EntryHeader(String name, int flags, int layout, long originalLength,
    long storedLength, long mtimeMillis) {
  public static final int MAGIC = 0x48504645;
  public static final int FIXED_SIZE = 36;
  public static final int TRAILER_SIZE = 4;
  /** Layout of entry version 1: the content checksum alone (every entry of part version 1). */
  public static final int PLAIN = 0;
  /** Layout of entry version 2: chunk checksums before the content checksum. */
  public static final int CHUNKED = 1;

  /** An entry of layout {@link #PLAIN}. */
  public EntryHeader(String name, int flags, long originalLength, long storedLength,
      long mtimeMillis) {
    this(name, flags, PLAIN, originalLength, storedLength, mtimeMillis);
  }

  /** The layout the writer gives a member stored with this codec and of this length. */
  public static int layoutFor(Codec codec, long length) {
    return ChunkChecksums.apply(codec, length) ? CHUNKED : PLAIN;
  }

  /** Length of the header for a name of this many UTF-8 bytes. */
  public static int size(int nameBytes) {
    return FIXED_SIZE + nameBytes;
  }

  public int size() {
    return size(name.getBytes(StandardCharsets.UTF_8).length);
  }

  /**
   * The name's length in UTF-8 bytes, from the first bytes of a header (its {@code NameLength}
   * field, unchecked): how many more bytes to read for the whole header.
   */
  public static int nameLength(byte[] header) {
    return ((header[6] & 0xFF) << 8) | (header[7] & 0xFF);
  }

  /** The whole entry's length: header, stored bytes, chunk checksums, content checksum. */
  public long entryLength() {
    return size() + storedLength + tableBytes() + TRAILER_SIZE;
  }

  /**
   * The most bytes an entry of a member of {@code length} bytes takes, whatever its codec: for
   * writers planning where entries go.
   */
  public static long maxEntryLength(int nameBytes, long length) {
    // Only a raw member over the threshold has a table: a member the threshold keeps out must
    // still fill its part to the byte.
    long table = ChunkChecksums.apply(Codec.RAW, length) ? ChunkChecksums.tableBytes(length) : 0;
    return size(nameBytes) + length + table + TRAILER_SIZE;
  }

  public boolean chunked() {
    return layout == CHUNKED;
  }

  /** Length of the chunk checksums' table (0 unless chunked). */
  public long tableBytes() {
    return chunked() ? ChunkChecksums.tableBytes(storedLength) : 0;
  }

  public Codec codec() {
    return Codec.ofFlags(flags);
  }

  public byte[] toBytes() {
    byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
    ByteBuffer buf = ByteBuffer.allocate(size(nameBytes.length));
    buf.putInt(MAGIC).put((byte) flags).put((byte) layout).putShort((short) nameBytes.length);
    buf.putLong(originalLength).putLong(storedLength).putLong(mtimeMillis).put(nameBytes);
    buf.putInt(Checksums.crc32c(buf.array(), 0, buf.position()));
    return buf.array();
  }

  /**
   * Decodes and checks the header at {@code offset} of {@code bytes}.
   *
   * @param available bytes of the buffer from {@code offset} that belong to this entry
   */
  public static EntryHeader read(byte[] bytes, int offset, int available, String file,
      long fileOffset) throws CorruptArchiveException {
    if (available < FIXED_SIZE) {
      throw new CorruptArchiveException(file, fileOffset, "entry shorter than its header");
    }
    ByteBuffer buf = ByteBuffer.wrap(bytes, offset, available);
    int magic = buf.getInt();
    if (magic != MAGIC) {
      throw new CorruptArchiveException(file, fileOffset, String.format(
          "no entry here: magic 0x%08X, expected 0x%08X", magic, MAGIC));
    }
    int flags = buf.get() & 0xFF;
    int layout = buf.get() & 0xFF;
    int nameLength = buf.getShort() & 0xFFFF;
    if (available < size(nameLength)) {
      throw new CorruptArchiveException(file, fileOffset,
          "entry header claims a name of " + nameLength + " bytes, past the entry's end");
    }
    long originalLength = buf.getLong();
    long storedLength = buf.getLong();
    long mtime = buf.getLong();
    int nameAt = buf.position();
    buf.position(nameAt + nameLength);
    int stored = buf.getInt();
    int computed = Checksums.crc32c(bytes, offset, size(nameLength) - 4);
    if (stored != computed) {
      throw new CorruptArchiveException(file, fileOffset, String.format(
          "entry header checksum 0x%08X, computed 0x%08X", stored, computed));
    }
    if (Codec.ofFlags(flags) == null || (flags & ~Codec.MASK) != 0) {
      throw new CorruptArchiveException(file, fileOffset + 4, "unknown entry flags " + flags);
    }
    if (layout != PLAIN && (layout != CHUNKED || Codec.ofFlags(flags) != Codec.RAW
        || storedLength != originalLength || storedLength < 0)) {
      throw new CorruptArchiveException(file, fileOffset + 5, "entry layout " + layout
          + " for flags " + flags + ", " + storedLength + " of " + originalLength + " bytes");
    }
    String name = new String(bytes, nameAt, nameLength, StandardCharsets.UTF_8);
    return new EntryHeader(name, flags, layout, originalLength, storedLength, mtime);
  }
}
