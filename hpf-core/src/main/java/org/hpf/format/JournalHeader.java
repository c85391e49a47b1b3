package org.hpf.format;

import java.nio.ByteBuffer;
import org.hpf.CorruptArchiveException;

/**
 * What a journal is for (docs/FORMAT.md, "Journal"): the operation that writes it, whether
 * added names replace existing ones, the generation it builds on (0 for a create), and the
 * writer's settings, so that recovery commits what the writer would have.
 */
public record JournalHeader(int operation, boolean replace, long baseGeneration,
    int bucketCapacity, long blockSize, long partSize) {
  public static final int SIZE = 30;
  public static final int CREATE = 1;
  public static final int APPEND = 2;

  public byte[] toBytes() {
    return ByteBuffer.allocate(SIZE).put((byte) operation).put((byte) (replace ? 1 : 0))
        .putLong(baseGeneration).putInt(bucketCapacity).putLong(blockSize).putLong(partSize)
        .array();
  }

  public static JournalHeader read(ByteBuffer buf, String file) throws CorruptArchiveException {
    int at = buf.position();
    int operation = buf.get() & 0xFF;
    int flags = buf.get() & 0xFF;
    long base = buf.getLong();
    int capacity = buf.getInt();
    long blockSize = buf.getLong();
    long partSize = buf.getLong();
    if ((operation != CREATE && operation != APPEND) || (flags & ~1) != 0 || base < 0
        || capacity < 1 || blockSize < 1 || partSize < 1) {
      throw new CorruptArchiveException(file, at, "bad journal header: operation " + operation
          + ", flags " + flags + ", base generation " + base + ", capacity " + capacity
          + ", block size " + blockSize + ", part size " + partSize);
    }
    return new JournalHeader(operation, (flags & 1) != 0, base, capacity, blockSize, partSize);
  }
}
