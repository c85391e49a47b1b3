package org.hpf.internal.format;

import java.nio.ByteBuffer;
import org.hpf.CorruptArchiveException;

/**
 * What a journal is for (docs/FORMAT.md, "Journal"): the operation that writes it, whether
 * added names replace existing ones, the hash algorithm of its records, the generation it builds
 * on (0 for a create), and the writer's settings, so that recovery commits what the writer would
 * have.
 */
public record JournalHeader(int operation, boolean replace, int hashAlgorithm,
    long baseGeneration, int bucketCapacity, long blockSize, long partSize) {
  public static final int SIZE = 30;
  public static final int CREATE = 1;
  public static final int APPEND = 2;
  private static final int REPLACE = 0x1;
  /** Flag of version 2: the records' hashes are hash algorithm 2 (else 1). */
  private static final int SHA256 = 0x2;

  public JournalHeader {
    if (!NameHasher.isKnown(hashAlgorithm)) {
      throw new IllegalArgumentException("unknown hash algorithm " + hashAlgorithm);
    }
  }

  public byte[] toBytes() {
    int flags = (replace ? REPLACE : 0)
        | (hashAlgorithm == NameHasher.SHA256_128_ID ? SHA256 : 0);
    return ByteBuffer.allocate(SIZE).put((byte) operation).put((byte) flags)
        .putLong(baseGeneration).putInt(bucketCapacity).putLong(blockSize).putLong(partSize)
        .array();
  }

  /** Reads the header of a journal of {@code version}. */
  public static JournalHeader read(ByteBuffer buf, String file, int version)
      throws CorruptArchiveException {
    int at = buf.position();
    int operation = buf.get() & 0xFF;
    int flags = buf.get() & 0xFF;
    long base = buf.getLong();
    int capacity = buf.getInt();
    long blockSize = buf.getLong();
    long partSize = buf.getLong();
    int knownFlags = version == 1 ? REPLACE : REPLACE | SHA256;
    if ((operation != CREATE && operation != APPEND) || (flags & ~knownFlags) != 0 || base < 0
        || capacity < 1 || blockSize < 1 || partSize < 1) {
      throw new CorruptArchiveException(file, at, "bad journal header: operation " + operation
          + ", flags " + flags + ", base generation " + base + ", capacity " + capacity
          + ", block size " + blockSize + ", part size " + partSize);
    }
    int algorithm = (flags & SHA256) != 0 ? NameHasher.SHA256_128_ID : NameHasher.MURMUR3_128_ID;
    return new JournalHeader(operation, (flags & REPLACE) != 0, algorithm, base, capacity,
        blockSize, partSize);
  }
}
