package org.hpf.internal.format;

import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.hpf.ArchiveVersionException;
import org.hpf.CorruptArchiveException;

/**
 * The 24-byte header every archive file starts with:
 * {@code Magic, Kind, Version, Reserved, ArchiveId} (docs/FORMAT.md, "Common header").
 */
public final class FileHeader {
  public static final int MAGIC = 0x4850461A;
  public static final int SIZE = 24;
  /** The archive format version this code writes (each file kind has its own, at most this). */
  public static final int FORMAT_VERSION = 7;
  public static final int MIN_SUPPORTED_VERSION = 1;
  /** Offset of the version byte in the header. */
  static final int VERSION_OFFSET = 5;

  private FileHeader() {}

  public static void write(DataOutput out, FileKind kind, ArchiveId id) throws IOException {
    out.writeInt(MAGIC);
    out.writeByte(kind.code());
    out.writeByte(kind.version());
    out.writeShort(0);
    out.writeLong(id.high());
    out.writeLong(id.low());
  }

  public static byte[] bytes(FileKind kind, ArchiveId id) {
    ByteBuffer buf = ByteBuffer.allocate(SIZE);
    buf.putInt(MAGIC).put((byte) kind.code()).put((byte) kind.version()).putShort((short) 0);
    buf.putLong(id.high()).putLong(id.low());
    return buf.array();
  }

  /** The archive id of a header, unchecked. */
  public static ArchiveId archiveIdOf(byte[] header) {
    ByteBuffer buf = ByteBuffer.wrap(header, 8, ArchiveId.BYTES);
    return new ArchiveId(buf.getLong(), buf.getLong());
  }

  /**
   * Checks the header at the buffer's position and advances past it.
   *
   * @param expectedId the archive's id, or null to accept any (returned for the caller to check)
   * @return the archive id found in the header
   */
  public static ArchiveId check(ByteBuffer buf, String file, FileKind expected,
      ArchiveId expectedId)
      throws CorruptArchiveException, ArchiveVersionException {
    int start = buf.position();
    if (buf.remaining() < SIZE) {
      throw new CorruptArchiveException(file, start,
          "file too short for a header (" + buf.remaining() + " of " + SIZE + " bytes)");
    }
    int magic = buf.getInt();
    if (magic != MAGIC) {
      throw new CorruptArchiveException(file, start, String.format(
          "not an hpf file: magic 0x%08X, expected 0x%08X", magic, MAGIC));
    }
    int kindCode = buf.get() & 0xFF;
    FileKind kind = FileKind.of(kindCode);
    if (kind != expected) {
      throw new CorruptArchiveException(file, start + 4, "expected kind " + expected + ", found "
          + (kind == null ? "unknown kind " + kindCode : kind));
    }
    int version = buf.get() & 0xFF;
    if (version < MIN_SUPPORTED_VERSION || version > expected.version()) {
      throw new ArchiveVersionException(file, version, MIN_SUPPORTED_VERSION, expected.version());
    }
    int reserved = buf.getShort();
    if (reserved != 0) {
      throw new CorruptArchiveException(file, start + 6, "reserved header bytes are " + reserved);
    }
    ArchiveId id = new ArchiveId(buf.getLong(), buf.getLong());
    if (expectedId != null && !expectedId.equals(id)) {
      throw new CorruptArchiveException(file, start + 8,
          "belongs to another archive: id " + id + ", expected " + expectedId);
    }
    return id;
  }

  /** The version of the file whose header starts at {@code headerStart} (already checked). */
  public static int version(ByteBuffer buf, int headerStart) {
    return buf.get(headerStart + VERSION_OFFSET) & 0xFF;
  }
}
