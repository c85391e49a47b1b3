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
  PER_RECORD(0),
  /**
   * Versions 2 and 3 with access width 0: records in groups of {@value #GROUP}, each group
   * followed by the CRC32C of its records; a reader reads and checks a record's whole group
   * (about 1.3 KB, which a positioned read fetches as cheaply as 40 bytes). In version 3 every
   * record has the header's common access id.
   */
  GROUPED(0),
  /** Version 3, access width 1: each group's records are followed by one byte id each. */
  GROUPED_ID8(1),
  /** Version 3, access width 2: each group's records are followed by a uint16 id each. */
  GROUPED_ID16(2);

  /** Records per group in versions 2 and 3. */
  public static final int GROUP = 32;

  /** Bytes of access id per record after each group's records. */
  private final int idWidth;

  RecordLayout(int idWidth) {
    this.idWidth = idWidth;
  }

  /** The layout of index files of version 1 or 2. */
  public static RecordLayout of(int indexVersion) {
    return indexVersion == 1 ? PER_RECORD : GROUPED;
  }

  /** The grouped layout of index files of version 3 with this access width (0, 1 or 2). */
  public static RecordLayout ofAccessWidth(int width) {
    return switch (width) {
      case 0 -> GROUPED;
      case 1 -> GROUPED_ID8;
      case 2 -> GROUPED_ID16;
      default -> throw new IllegalArgumentException("access width " + width);
    };
  }

  /** The narrowest width that holds every id up to {@code maxId}, where ids differ. */
  public static int accessWidth(boolean allSame, int maxId) {
    return allSame ? 0 : maxId <= 0xFF ? 1 : 2;
  }

  /** Bytes of access id after each record of a group. */
  public int accessWidth() {
    return idWidth;
  }

  private long recordBytes() {
    return IndexRecord.SIZE + idWidth;
  }

  private long groupBytes() {
    return GROUP * recordBytes() + 4;
  }

  /** Bytes of the records section for {@code count} records. */
  public long sectionLength(long count) {
    if (this == PER_RECORD) {
      return count * IndexRecord.SIZE;
    }
    return count * recordBytes() + groups(count) * 4;
  }

  /** Offset of record {@code slot} from the start of the records section. */
  public long position(long slot) {
    if (this == PER_RECORD) {
      return slot * IndexRecord.SIZE;
    }
    return (slot / GROUP) * groupBytes() + (slot % GROUP) * IndexRecord.SIZE;
  }

  /** Where a read that checks record {@code slot} starts, from the start of the section. */
  public long readStart(long slot) {
    if (this == PER_RECORD) {
      return position(slot);
    }
    return (slot / GROUP) * groupBytes();
  }

  /** Where a read that checks record {@code slot} of {@code count} ends. */
  public long readEnd(long slot, long count) {
    if (this == PER_RECORD) {
      return position(slot) + IndexRecord.SIZE;
    }
    long group = slot / GROUP;
    return group * groupBytes() + groupRecords(group, count) * recordBytes() + 4;
  }

  /** The first slot whose record one checked read of {@code slot} returns. */
  public long checkedRunStart(long slot) {
    return this == PER_RECORD ? slot : slot / GROUP * GROUP;
  }

  /** The last slot whose record one checked read of {@code slot} of {@code count} returns. */
  public long checkedRunEnd(long slot, long count) {
    return this == PER_RECORD ? slot : Math.min(count, slot / GROUP * GROUP + GROUP) - 1;
  }

  static long groups(long count) {
    return (count + GROUP - 1) / GROUP;
  }

  static long groupRecords(long group, long count) {
    return Math.min(GROUP, count - group * GROUP);
  }

  /** Writes records in slot order as this layout lays them out. */
  public void write(List<IndexRecord> inSlotOrder, DataOutput out) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(this == PER_RECORD ? IndexRecord.SIZE
        : (int) groupBytes());
    int groupStart = 0;
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
        for (int j = groupStart; j <= i; j++) {
          IndexRecord.putUnsigned(buf, inSlotOrder.get(j).access(), idWidth);
        }
        buf.putInt(Checksums.crc32c(buf.array(), 0, buf.position()));
        out.write(buf.array(), 0, buf.position());
        buf.clear();
        groupStart = i + 1;
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
    private final int commonAccess;
    private long checkedGroup = -1;

    /** A span of an index file whose records have no access id or share one (0). */
    public Span(RecordLayout layout, byte[] bytes, long first, long count, String file,
        long sectionOffset) {
      this(layout, bytes, first, count, file, sectionOffset, 0);
    }

    /**
     * @param bytes read from {@code layout.readStart(first)} of the section on
     * @param count the bucket's record count
     * @param sectionOffset where the records section starts in the file (for messages)
     * @param commonAccess the access id of every record when the layout stores none
     */
    public Span(RecordLayout layout, byte[] bytes, long first, long count, String file,
        long sectionOffset, int commonAccess) {
      this.layout = layout;
      this.bytes = bytes;
      this.start = layout.readStart(first);
      this.count = count;
      this.file = file;
      this.sectionOffset = sectionOffset;
      this.commonAccess = commonAccess;
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
      long groupStart = group * layout.groupBytes();
      int records = (int) groupRecords(group, count);
      if (group != checkedGroup) {
        int from = (int) (groupStart - start);
        int length = (int) (records * layout.recordBytes());
        int stored = ByteBuffer.wrap(bytes, from + length, 4).getInt();
        int computed = Checksums.crc32c(bytes, from, length);
        if (stored != computed) {
          throw new CorruptArchiveException(file, sectionOffset + groupStart + length,
              String.format("checksum of records %d..%d is 0x%08X, computed 0x%08X",
                  group * GROUP, group * GROUP + records - 1, stored, computed));
        }
        checkedGroup = group;
      }
      IndexRecord record = IndexRecord.readV2(bytes, offset, file, sectionOffset + at);
      int access = commonAccess;
      if (layout.idWidth > 0) {
        long idAt = groupStart + records * IndexRecord.SIZE + (slot % GROUP) * layout.idWidth;
        access = (int) IndexRecord.getUnsigned(
            ByteBuffer.wrap(bytes, (int) (idAt - start), layout.idWidth), layout.idWidth);
      }
      if (record.isTombstone()) {
        if (access != 0) {
          throw new CorruptArchiveException(file, sectionOffset + at,
              "tombstone record with access id " + access);
        }
        return record;
      }
      return record.withAccess(access);
    }
  }
}
