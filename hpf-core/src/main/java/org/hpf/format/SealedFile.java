package org.hpf.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.hpf.CorruptArchiveException;
import org.hpf.io.ArchiveInput;
import org.hpf.io.ArchiveStorage;

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
    byte[] bytes;
    try (ArchiveInput in = storage.open(name)) {
      if (in.length() > MAX_WHOLE_FILE) {
        throw new CorruptArchiveException(storage.location(name), 0,
            "implausibly large " + kind + " file: " + in.length() + " bytes");
      }
      bytes = in.readFully(0, (int) in.length());
    }
    return check(bytes, storage.location(name), kind, archiveId);
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

  /** Wraps a buffer underflow while parsing a body into a typed error. */
  public static CorruptArchiveException truncatedBody(String file, ByteBuffer buf, Exception e) {
    return new CorruptArchiveException(file, buf.position(),
        "body ends early or holds impossible values (" + e + ")");
  }

}
