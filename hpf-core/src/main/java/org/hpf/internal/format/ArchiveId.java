package org.hpf.internal.format;

import java.security.SecureRandom;
import java.util.HexFormat;

/** The 16 random bytes that tie every file of one archive together. */
public record ArchiveId(long high, long low) {
  public static final int BYTES = 16;
  private static final SecureRandom RANDOM = new SecureRandom();

  public static ArchiveId random() {
    return new ArchiveId(RANDOM.nextLong(), RANDOM.nextLong());
  }

  @Override
  public String toString() {
    return HexFormat.of().toHexDigits(high) + HexFormat.of().toHexDigits(low);
  }
}
