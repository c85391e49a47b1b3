package org.hpf.internal.format;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.hpf.CorruptArchiveException;

/**
 * The header of a member's entry in a part file (docs/FORMAT.md, "Part"):
 * {@code EntryMagic, Flags, Reserved, NameLength, OriginalLength, StoredLength, MTimeMillis, Name,
 * HeaderChecksum}. The stored bytes and a 4-byte content checksum follow it.
 */
public record EntryHeader(String name, int flags, long originalLength, long storedLength,
    long mtimeMillis) {
  public static final int MAGIC = 0x48504645;
  public static final int FIXED_SIZE = 36;
  public static final int TRAILER_SIZE = 4;

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

  /** The whole entry's length: header, stored bytes, trailer. */
  public long entryLength() {
    return size() + storedLength + TRAILER_SIZE;
  }

  public Codec codec() {
    return Codec.ofFlags(flags);
  }

  public byte[] toBytes() {
    byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
    ByteBuffer buf = ByteBuffer.allocate(size(nameBytes.length));
    buf.putInt(MAGIC).put((byte) flags).put((byte) 0).putShort((short) nameBytes.length);
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
    buf.get();
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
    String name = new String(bytes, nameAt, nameLength, StandardCharsets.UTF_8);
    return new EntryHeader(name, flags, originalLength, storedLength, mtime);
  }
}
