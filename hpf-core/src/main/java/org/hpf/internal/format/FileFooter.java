package org.hpf.internal.format;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.hpf.CorruptArchiveException;

/**
 * The 8-byte footer that ends every sealed file: {@code FooterMagic, CRC32C} of all bytes before
 * the checksum (docs/FORMAT.md, "Common header and footer").
 */
public final class FileFooter {
  public static final int MAGIC = ~FileHeader.MAGIC;
  public static final int SIZE = 8;

  private FileFooter() {}

  /** Checks the footer of a whole file held in memory. */
  public static void check(byte[] file, String name) throws CorruptArchiveException {
    if (file.length < FileHeader.SIZE + SIZE) {
      throw new CorruptArchiveException(name, file.length,
          "file is truncated: " + file.length + " bytes is shorter than header and footer");
    }
    ByteBuffer buf = ByteBuffer.wrap(file);
    int magicAt = file.length - SIZE;
    int magic = buf.getInt(magicAt);
    if (magic != MAGIC) {
      throw new CorruptArchiveException(name, magicAt, String.format(
          "footer magic 0x%08X, expected 0x%08X (truncated or damaged file)", magic, MAGIC));
    }
    CRC32C crc = new CRC32C();
    crc.update(file, 0, file.length - 4);
    int expected = buf.getInt(file.length - 4);
    if ((int) crc.getValue() != expected) {
      throw new CorruptArchiveException(name, file.length - 4, String.format(
          "file checksum 0x%08X, computed 0x%08X", expected, (int) crc.getValue()));
    }
  }
}
