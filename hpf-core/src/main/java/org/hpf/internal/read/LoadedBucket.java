package org.hpf.internal.read;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.Checksums;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.format.FileKind;
import org.hpf.internal.format.IndexHeader;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.NameHash;
import org.hpf.internal.format.RecordLayout;
import org.hpf.internal.index.BucketFunction;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveStorage;

/**
 * A bucket whose function is in memory and whose index file is open: a lookup is one function
 * evaluation and one positioned read of the record (with the group of records its checksum
 * covers, in index files of version 2), or none once the bucket's records are held in memory
 * ({@link ResidentRecords}).
 */
final class LoadedBucket implements java.io.Closeable {
  private final ArchiveInput index;
  private final String file;
  private final BucketFunction function;
  private final long recordsOffset;
  private final RecordLayout layout;
  /** The access id of every record of an index file that stores none per record. */
  private final int commonAccess;
  private final long recordCount;
  private final RecordCache cache;
  private final long cacheKey;
  private final ResidentRecords resident;

  private LoadedBucket(ArchiveInput index, String file, BucketFunction function,
      IndexHeader header, RecordCache cache, IndexMemory memory, boolean mayHoldRecords) {
    this.index = index;
    this.file = file;
    this.function = function;
    this.recordsOffset = header.recordsOffset();
    this.layout = header.layout();
    this.commonAccess = header.commonAccess();
    this.recordCount = header.recordCount();
    this.cache = cache;
    this.cacheKey = cache.newBucketKey();
    this.resident = ResidentRecords.of(mayHoldRecords, memory, recordsOffset,
        layout.readEnd(recordCount - 1, recordCount));
  }

  /**
   * Opens the bucket's index file and loads its function with one positioned read; its records
   * may be held in {@code memory} later where {@code mayHoldRecords}.
   */
  static LoadedBucket load(ArchiveStorage storage, FileOpener opener, ArchiveId id,
      BucketRef ref, RecordCache cache, IndexMemory memory, boolean mayHoldRecords)
      throws IOException {
    String name = ref.indexFile();
    String file = storage.location(name);
    ArchiveInput index = opener.open(name, ref.indexFileLength());
    try {
      if (index.length() != ref.indexFileLength()) {
        throw new CorruptArchiveException(file, index.length(), "index file is "
            + index.length() + " bytes, the directory says " + ref.indexFileLength());
      }
      // The newest header's size: an older, shorter one leaves the read in the records.
      byte[] head = index.readFully(0, FileHeader.SIZE + IndexHeader.SIZE
          + ref.functionLength() + 4);
      ByteBuffer buf = ByteBuffer.wrap(head);
      FileHeader.check(buf, file, FileKind.INDEX, id);
      int version = FileHeader.version(buf, 0);
      int headerSize = IndexHeader.sizeOf(version);
      int sectionEnd = FileHeader.SIZE + headerSize + ref.functionLength() + 4;
      IndexHeader header = IndexHeader.read(buf, file, version);
      int stored = buf.getInt(sectionEnd - 4);
      int computed = Checksums.crc32c(head, FileHeader.SIZE, sectionEnd - 4 - FileHeader.SIZE);
      if (stored != computed) {
        throw new CorruptArchiveException(file, sectionEnd - 4, String.format(
            "function section checksum 0x%08X, computed 0x%08X", stored, computed));
      }
      if (header.recordCount() != ref.recordCount()
          || header.functionLength() != ref.functionLength()
          || header.localDepth() != ref.localDepth()
          || header.fileLength() != ref.indexFileLength()) {
        throw new CorruptArchiveException(file, FileHeader.SIZE, "index header " + header
            + " disagrees with the directory's " + ref);
      }
      BucketFunction function = BucketFunction.fromBytes(header.functionCodec(), head,
          FileHeader.SIZE + headerSize, header.functionLength(), header.recordCount(), file);
      return new LoadedBucket(index, file, function, header, cache, memory, mayHoldRecords);
    } catch (EOFException e) {
      index.close();
      throw new CorruptArchiveException(file, "index file is truncated", e);
    } catch (IOException | RuntimeException e) {
      index.close();
      throw e;
    }
  }

  /** The record of {@code hash}, or null if the bucket has no such name. */
  IndexRecord find(NameHash hash) throws IOException {
    long slot = slotOf(hash);
    return slot < 0 ? null : recordAt(slot, hash);
  }

  /** The slot the function gives {@code hash}: -1 if the bucket surely does not have it. */
  long slotOf(NameHash hash) throws CorruptArchiveException {
    try {
      return function.slotOf(hash);
    } catch (RuntimeException | AssertionError e) {
      // A function that passed its checksum but is not one sux4j built (a crafted file) can
      // fail inside the library: out-of-range indexes, or its assertions where they are on.
      throw new CorruptArchiveException(file, FileHeader.SIZE + IndexHeader.SIZE,
          "the bucket's function cannot be evaluated (" + e + ")");
    }
  }

  /** The record at {@code slot} if it is {@code hash}'s, else null: one read. */
  IndexRecord recordAt(long slot, NameHash hash) throws IOException {
    IndexRecord cached = cache.get(cacheKey, slot);
    if (cached != null) {
      return cached.hash().equals(hash) ? cached : null;
    }
    IndexRecord record = readRecords(slot, slot).record(slot);
    if (!record.hash().equals(hash)) {
      return null;
    }
    remember(slot, record);
    return record;
  }

  /** Keeps a record a lookup found in the reader's record cache (when it has one). */
  void remember(long slot, IndexRecord record) {
    cache.put(cacheKey, slot, record);
  }

  /**
   * The records from slot {@code first} to slot {@code last} with what checks them: one read.
   * Only the records asked of the span are checked, so a damaged neighbour fails only the
   * lookups that need it.
   */
  RecordLayout.Span readRecords(long first, long last) throws IOException {
    try {
      byte[] section = resident.bytes(index);
      if (section != null) {
        return new RecordLayout.Span(layout, section, 0, recordCount, file, recordsOffset,
            commonAccess);
      }
      long start = layout.readStart(first);
      byte[] bytes = new byte[(int) (layout.readEnd(last, recordCount) - start)];
      index.readFully(recordsOffset + start, bytes, 0, bytes.length);
      return new RecordLayout.Span(layout, bytes, first, recordCount, file, recordsOffset,
          commonAccess);
    } catch (EOFException e) {
      throw new CorruptArchiveException(file, "index file is truncated", e);
    }
  }

  /** Heap this bucket's records take, once held in memory; else 0. */
  long heldRecordBytes() {
    return resident.heldBytes();
  }

  long functionBits() {
    return function.numBits();
  }

  @Override
  public void close() throws IOException {
    resident.release();
    index.close();
  }
}
