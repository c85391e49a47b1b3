package org.hpf.internal.format;

import java.util.zip.CRC32C;

/** CRC32C over byte ranges, as an int (the format stores it as uint32). */
public final class Checksums {
  private Checksums() {}

  public static int crc32c(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }
}
