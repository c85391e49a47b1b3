package org.hpf.internal.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveStorage;

/** Reads small files (manifest, directory) whole, checking header and footer. */
public final class SealedFile {
  /** The manifest and directory are small; anything larger is damage, not data. */
  public static final int MAX_WHOLE_FILE = 256 << 20;

  private SealedFile() {}

  /**
   * Returns the file's body: a buffer positioned after the header, limited before the footer.
   *
   * @param archiveId expected id, or null to accept any (check {@code FileHeader} yourself)
   */
  public static ByteBuffer read(ArchiveStorage storage, String name, FileKind kind,
      ArchiveId archiveId) throws IOException {
    return check(readBytes(storage, name, kind), storage.location(name), kind, archiveId);
  }

  /** The file's bytes, unchecked but for a size that a {@code kind} file can have. */
  static byte[] readBytes(ArchiveStorage storage, String name, FileKind kind)
      throws IOException {
    try (ArchiveInput in = storage.open(name)) {
      if (in.length() > MAX_WHOLE_FILE) {
        throw new CorruptArchiveException(storage.location(name), 0,
            "implausibly large " + kind + " file: " + in.length() + " bytes");
      }
      return in.readFully(0, (int) in.length());
    }
  }

  /** As {@link #read} for bytes already in memory. */
  public static ByteBuffer check(byte[] bytes, String file, FileKind kind, ArchiveId archiveId)
      throws IOException {
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    FileHeader.check(buf, file, kind, archiveId);
    FileFooter.check(bytes, file);
    buf.limit(bytes.length - FileFooter.SIZE);
    return buf;
  }

  /**
   * True if the file ends with a footer whose checksum matches every byte before it, read in
   * streaming chunks (for part files, too large to read whole).
   */
  public static boolean footerMatches(ArchiveInput in) throws IOException {
    long length = in.length();
    if (length < FileHeader.SIZE + FileFooter.SIZE) {
      return false;
    }
    ByteBuffer footer = ByteBuffer.wrap(in.readFully(length - FileFooter.SIZE, FileFooter.SIZE));
    if (footer.getInt() != FileFooter.MAGIC) {
      return false;
    }
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    SequentialInput bytes = new SequentialInput(in, 0, length - 4, 1 << 20);
    byte[] chunk = new byte[1 << 16];
    int n;
    while ((n = bytes.read(chunk, 0, chunk.length)) > 0) {
      crc.update(chunk, 0, n);
    }
    return (int) crc.getValue() == footer.getInt();
  }

  /** Wraps a buffer underflow while parsing a body into a typed error. */
  public static CorruptArchiveException truncatedBody(String file, ByteBuffer buf, Exception e) {
    return new CorruptArchiveException(file, buf.position(),
        "body ends early or holds impossible values (" + e + ")");
  }

}
