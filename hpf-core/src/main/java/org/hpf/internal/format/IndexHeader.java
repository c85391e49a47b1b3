package org.hpf.internal.format;

import java.nio.ByteBuffer;
import org.hpf.CorruptArchiveException;

/**
 * The fixed part of an index file after the common header (docs/FORMAT.md, "Index"):
 * {@code RecordCount, LocalDepth, Prefix, RecordSize, FunctionCodec, FunctionLength}.
 *
 * @param version the index file's version (from its common header), which fixes the
 *     {@link RecordLayout}
 */
public record IndexHeader(int recordCount, int localDepth, int prefix, int functionCodec,
    int functionLength, int version) {
  public static final int SIZE = 15;

  /** A header of the version this code writes. */
  public IndexHeader(int recordCount, int localDepth, int prefix, int functionCodec,
      int functionLength) {
    this(recordCount, localDepth, prefix, functionCodec, functionLength,
        FileKind.INDEX.version());
  }

  public RecordLayout layout() {
    return RecordLayout.of(version);
  }

  /** Offset of record 0 in the index file. */
  public long recordsOffset() {
    return FileHeader.SIZE + SIZE + (long) functionLength + 4;
  }

  /** Length of the whole index file. */
  public long fileLength() {
    return recordsOffset() + layout().sectionLength(recordCount) + FileFooter.SIZE;
  }

  public void writeTo(ByteBuffer buf) {
    buf.putInt(recordCount).put((byte) localDepth).putInt(prefix).put((byte) IndexRecord.SIZE)
        .put((byte) functionCodec).putInt(functionLength);
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
    if (recordSize != IndexRecord.SIZE) {
      throw new CorruptArchiveException(file, at + 9, "record size " + recordSize
          + ", expected " + IndexRecord.SIZE);
    }
    if (count < 0 || functionLength < 0 || depth > DirectoryFile.MAX_DEPTH) {
      throw new CorruptArchiveException(file, at, "impossible index header: count " + count
          + ", depth " + depth + ", function length " + functionLength);
    }
    return new IndexHeader(count, depth, prefix, codec, functionLength, version);
  }
}
