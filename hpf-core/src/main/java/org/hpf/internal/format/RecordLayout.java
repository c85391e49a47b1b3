package org.hpf.internal.format;

import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.hpf.CorruptArchiveException;

/**
 * How an index file lays out its records after the function section (docs/FORMAT.md, "Index"):
 * where record {@code i} is, which bytes a reader must read to check it, and how it is decoded.
 */
public enum RecordLayout {
  /** Version 1: records back to back, each with its own checksum. */
  PER_RECORD {
    @Override
    public long sectionLength(long count) {
      return count * IndexRecord.SIZE;
    }

    @Override
    public long position(long slot) {
      return slot * IndexRecord.SIZE;
    }

    @Override
    public long readStart(long slot) {
      return position(slot);
    }

    @Override
    public long readEnd(long slot, long count) {
      return position(slot) + IndexRecord.SIZE;
    }
  },

  /**
   * Version 2: records in groups of {@value #GROUP}, each group followed by the CRC32C of its
   * records; a reader reads and checks a record's whole group (about 1.3 KB, which a positioned
   * read fetches as cheaply as 40 bytes).
   */
  GROUPED {
    @Override
    public long sectionLength(long count) {
      return count * IndexRecord.SIZE + groups(count) * 4;
    }

    @Override
    public long position(long slot) {
      return (slot / GROUP) * GROUP_BYTES + (slot % GROUP) * IndexRecord.SIZE;
    }

    @Override
    public long readStart(long slot) {
      return (slot / GROUP) * GROUP_BYTES;
    }

    @Override
    public long readEnd(long slot, long count) {
      long group = slot / GROUP;
      return group * GROUP_BYTES + groupRecords(group, count) * IndexRecord.SIZE + 4;
    }
  };

  /** Records per group in version 2. */
  public static final int GROUP = 32;
  private static final long GROUP_BYTES = GROUP * IndexRecord.SIZE + 4;

  /** The layout of index files of this version. */
  public static RecordLayout of(int indexVersion) {
    return indexVersion == 1 ? PER_RECORD : GROUPED;
  }

  /** Bytes of the records section for {@code count} records. */
  public abstract long sectionLength(long count);

  /** Offset of record {@code slot} from the start of the records section. */
  public abstract long position(long slot);

  /** Where a read that checks record {@code slot} starts, from the start of the section. */
  public abstract long readStart(long slot);

  /** Where a read that checks record {@code slot} of {@code count} ends. */
  public abstract long readEnd(long slot, long count);

  static long groups(long count) {
    return (count + GROUP - 1) / GROUP;
  }

  static long groupRecords(long group, long count) {
    return Math.min(GROUP, count - group * GROUP);
  }

  /** Writes records in slot order as this layout lays them out. */
  public void write(List<IndexRecord> inSlotOrder, DataOutput out) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(this == GROUPED ? (int) GROUP_BYTES : IndexRecord.SIZE);
    for (int i = 0; i < inSlotOrder.size(); i++) {
      IndexRecord record = inSlotOrder.get(i);
      if (this == PER_RECORD) {
        buf.clear();
        record.writeTo(buf);
        out.write(buf.array(), 0, IndexRecord.SIZE);
        continue;
      }
      record.writeV2(buf);
      if ((i + 1) % GROUP == 0 || i + 1 == inSlotOrder.size()) {
        buf.putInt(Checksums.crc32c(buf.array(), 0, buf.position()));
        out.write(buf.array(), 0, buf.position());
        buf.clear();
      }
    }
  }

  /** Records read from an index file: the bytes of slots {@code first} to a later slot. */
  public static final class Span {
    private final RecordLayout layout;
    private final byte[] bytes;
    private final long start;
    private final long count;
    private final String file;
    private final long sectionOffset;
    private long checkedGroup = -1;

    /**
     * @param bytes read from {@code layout.readStart(first)} of the section on
     * @param count the bucket's record count
     * @param sectionOffset where the records section starts in the file (for messages)
     */
    public Span(RecordLayout layout, byte[] bytes, long first, long count, String file,
        long sectionOffset) {
      this.layout = layout;
      this.bytes = bytes;
      this.start = layout.readStart(first);
      this.count = count;
      this.file = file;
      this.sectionOffset = sectionOffset;
    }

    /**
     * Record {@code slot}, checked: only the checksum that covers it is verified, so damage
     * elsewhere in the span fails only the lookups that need it.
     */
    public IndexRecord record(long slot) throws CorruptArchiveException {
      long at = layout.position(slot);
      int offset = (int) (at - start);
      if (layout == PER_RECORD) {
        return IndexRecord.read(bytes, offset, file, sectionOffset + at);
      }
      long group = slot / GROUP;
      if (group != checkedGroup) {
        int groupStart = (int) (group * GROUP_BYTES - start);
        int length = (int) groupRecords(group, count) * IndexRecord.SIZE;
        int stored = ByteBuffer.wrap(bytes, groupStart + length, 4).getInt();
        int computed = Checksums.crc32c(bytes, groupStart, length);
        if (stored != computed) {
          throw new CorruptArchiveException(file, sectionOffset + group * GROUP_BYTES + length,
              String.format("checksum of records %d..%d is 0x%08X, computed 0x%08X",
                  group * GROUP, group * GROUP + length / IndexRecord.SIZE - 1, stored,
                  computed));
        }
        checkedGroup = group;
      }
      return IndexRecord.readV2(bytes, offset, file, sectionOffset + at);
    }
  }
}
