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
 *
 * <p>The function only speeds lookups up: where it cannot be loaded or evaluated, a lookup
 * searches the bucket's records, which are in increasing order of their hash, with one checked
 * read per probe (about log2 of the bucket's groups, plus one), and every member stays readable.
 */
final class LoadedBucket implements java.io.Closeable {
  private final ArchiveInput index;
  private final String file;
  /** Null where the function could not be used: lookups then search the sorted records. */
  private volatile BucketFunction function;
  private final UnreadableFunctions unreadable;
  private final long recordsOffset;
  private final RecordLayout layout;
  /** The access id of every record of an index file that stores none per record. */
  private final int commonAccess;
  private final long recordCount;
  private final RecordCache cache;
  private final long cacheKey;
  private final ResidentRecords resident;

  private LoadedBucket(ArchiveInput index, String file, BucketFunction function,
      UnreadableFunctions unreadable, IndexHeader header, RecordCache cache, IndexMemory memory,
      boolean mayHoldRecords) {
    this.index = index;
    this.file = file;
    this.function = function;
    this.unreadable = unreadable;
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
   * may be held in {@code memory} later where {@code mayHoldRecords}. A function section that
   * passes its checksum but cannot be decoded is reported to {@code unreadable}, and the bucket
   * is read by searching its records.
   */
  static LoadedBucket load(ArchiveStorage storage, FileOpener opener, ArchiveId id,
      BucketRef ref, RecordCache cache, IndexMemory memory, boolean mayHoldRecords,
      UnreadableFunctions unreadable) throws IOException {
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
      BucketFunction function;
      try {
        function = BucketFunction.fromBytes(header.functionCodec(), head,
            FileHeader.SIZE + headerSize, header.functionLength(), header.recordCount(), file);
      } catch (CorruptArchiveException e) {
        // The records, their layout and their checksums do not depend on the function.
        unreadable.report(file, e);
        function = null;
      }
      return new LoadedBucket(index, file, function, unreadable, header, cache, memory,
          mayHoldRecords);
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

  /**
   * The slot the function gives {@code hash} (-1 if the bucket surely does not have it), or,
   * without a usable function, the slot of the record whose hash is {@code hash} (-1 if none).
   */
  long slotOf(NameHash hash) throws IOException {
    BucketFunction loaded = function;
    if (loaded != null) {
      try {
        return loaded.slotOf(hash);
      } catch (RuntimeException | AssertionError e) {
        // A function that passed its checksum but is not one its codec builds can fail inside
        // sux4j (codecs 1 and 2): out-of-range indexes, or its assertions where they are on.
        function = null;
        unreadable.report(file, new CorruptArchiveException(file,
            FileHeader.SIZE + IndexHeader.SIZE, "the bucket's function cannot be evaluated ("
            + e + ")"));
      }
    }
    return search(hash);
  }

  /**
   * Binary search of the records, which are in increasing unsigned order of their hash; each
   * probe reads and checks the record's group (or, in version 1, the record).
   */
  private long search(NameHash hash) throws IOException {
    long low = 0;
    long high = recordCount - 1;
    RecordLayout.Span read = null;
    long readFirst = 1;
    long readLast = 0;
    while (low <= high) {
      long middle = (low + high) >>> 1;
      if (middle < readFirst || middle > readLast) {
        // The last probes of a search fall in one group: it is read once.
        readFirst = layout.checkedRunStart(middle);
        readLast = layout.checkedRunEnd(middle, recordCount);
        read = readRecords(readFirst, readLast);
      }
      int c = hash.compareTo(read.record(middle).hash());
      if (c == 0) {
        return middle;
      }
      if (c < 0) {
        high = middle - 1;
      } else {
        low = middle + 1;
      }
    }
    return -1;
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
    BucketFunction loaded = function;
    return loaded == null ? 0 : loaded.numBits();
  }

  @Override
  public void close() throws IOException {
    resident.release();
    index.close();
  }
}
