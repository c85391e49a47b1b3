package org.hpf.fs;

import org.apache.hadoop.fs.CompositeCrcFileChecksum;
import org.apache.hadoop.util.DataChecksum;

/**
 * A member's checksum: the CRC32C of its original bytes that its entry stores (docs/FORMAT.md,
 * "Part", ContentChecksum). It is a file-level CRC, so it is a {@link CompositeCrcFileChecksum}
 * ("COMPOSITE-CRC32C"): equal to the checksum HDFS reports for a file with the same bytes when
 * the client sets {@code dfs.checksum.combine.mode=COMPOSITE_CRC}, whatever the block sizes. That
 * is how {@code distcp -Ddfs.checksum.combine.mode=COMPOSITE_CRC} checks a copy out of an archive
 * against the checksum written when the file was archived.
 */
public final class HpfFileChecksum extends CompositeCrcFileChecksum {
  /**
   * Only reported in {@link #getChecksumOpt()} (as the chunk size a copy preserving the checksum
   * type would use); the CRC itself covers the whole member.
   */
  static final int BYTES_PER_CRC = 512;

  /**
   * The checksum of a member.
   *
   * @param crc32c the CRC32C of its bytes
   */
  public HpfFileChecksum(int crc32c) {
    super(crc32c, DataChecksum.Type.CRC32C, BYTES_PER_CRC);
  }
}
