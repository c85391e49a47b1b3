package org.hpf.internal.format;

import java.nio.ByteBuffer;
import org.hpf.CorruptArchiveException;

/**
 * The fixed part of an index file after the common header (docs/FORMAT.md, "Index"):
 * {@code RecordCount, LocalDepth, Prefix, RecordSize, FunctionCodec, FunctionLength}, and from
 * version 3 on {@code AccessWidth, CommonAccess}.
 *
 * @param version the index file's version (from its common header), which with the access width
 *     fixes the {@link RecordLayout}
 * @param accessWidth bytes of access id per record (version 3: 0, 1 or 2; older versions 0)
 * @param commonAccess the access id of every record when {@code accessWidth} is 0 (version 3)
 */
public record IndexHeader(int recordCount, int localDepth, int prefix, int functionCodec,
    int functionLength, int version, int accessWidth, int commonAccess) {
  /** Bytes of the header in index files of version 1 and 2. */
  public static final int SIZE_V2 = 15;
  /** Bytes of the header in index files of version 3. */
  public static final int SIZE = 18;

  /** A header of an older version, whose records carry no access id. */
  public IndexHeader(int recordCount, int localDepth, int prefix, int functionCodec,
      int functionLength, int version) {
    this(recordCount, localDepth, prefix, functionCodec, functionLength, version, 0, 0);
  }

  /** A header of the version this code writes. */
  public IndexHeader(int recordCount, int localDepth, int prefix, int functionCodec,
      int functionLength, int accessWidth, int commonAccess) {
    this(recordCount, localDepth, prefix, functionCodec, functionLength,
        FileKind.INDEX.version(), accessWidth, commonAccess);
  }

  /** Bytes of this header. */
  public int size() {
    return sizeOf(version);
  }

  /** Bytes of the header of index files of {@code version}. */
  public static int sizeOf(int version) {
    return version >= 3 ? SIZE : SIZE_V2;
  }

  public RecordLayout layout() {
    return version >= 3 ? RecordLayout.ofAccessWidth(accessWidth) : RecordLayout.of(version);
  }

  /** Offset of record 0 in the index file. */
  public long recordsOffset() {
    return FileHeader.SIZE + size() + (long) functionLength + 4;
  }

  /** Length of the whole index file. */
  public long fileLength() {
    return recordsOffset() + layout().sectionLength(recordCount) + FileFooter.SIZE;
  }

  public void writeTo(ByteBuffer buf) {
    buf.putInt(recordCount).put((byte) localDepth).putInt(prefix).put((byte) IndexRecord.SIZE)
        .put((byte) functionCodec).putInt(functionLength);
    if (version >= 3) {
      buf.put((byte) accessWidth).putShort((short) commonAccess);
    }
  }

  /** Reads the header of an index file of {@code version}. */
  public static IndexHeader read(ByteBuffer buf, String file, int version)
      throws CorruptArchiveException {
    int at = buf.position();
    int count = buf.getInt();
    int depth = buf.get() & 0xFF;
    int prefix = buf.getInt();
    int recordSize = buf.get() & 0xFF;
    int codec = buf.get() & 0xFF;
    int functionLength = buf.getInt();
    int width = 0;
    int common = 0;
    if (version >= 3) {
      width = buf.get() & 0xFF;
      common = buf.getShort() & 0xFFFF;
      if (width > 2 || (width > 0 && common != 0)) {
        throw new CorruptArchiveException(file, at + SIZE_V2, "impossible access width "
            + width + " with common access " + common);
      }
    }
    if (recordSize != IndexRecord.SIZE) {
      throw new CorruptArchiveException(file, at + 9, "record size " + recordSize
          + ", expected " + IndexRecord.SIZE);
    }
    if (count < 0 || functionLength < 0 || depth > DirectoryFile.MAX_DEPTH) {
      throw new CorruptArchiveException(file, at, "impossible index header: count " + count
          + ", depth " + depth + ", function length " + functionLength);
    }
    return new IndexHeader(count, depth, prefix, codec, functionLength, version, width, common);
  }
}
