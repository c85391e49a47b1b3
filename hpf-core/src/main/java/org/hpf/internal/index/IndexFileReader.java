package org.hpf.internal.index;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.format.FileFooter;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.format.FileKind;
import org.hpf.internal.format.IndexHeader;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.RecordLayout;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveStorage;

/**
 * Reads every record of a bucket, for writers that rebuild it and for verification: the whole
 * index file (at most one block) is read and its footer checked.
 */
public final class IndexFileReader {
  /** The largest index file a reader loads whole: one array. */
  static final long MAX_INDEX_FILE = Integer.MAX_VALUE - 8;

  private IndexFileReader() {}

  /**
   * A bucket read whole: its records, and what is wrong with its function, if anything (null
   * where it decodes and maps every record's hash to the record's number). A function that
   * cannot be used leaves the records readable (readers search them), so it is reported apart.
   */
  public record Contents(List<IndexRecord> records, String functionProblem) {}

  public static List<IndexRecord> readRecords(ArchiveStorage storage, ArchiveId id,
      BucketRef ref) throws IOException {
    return read(storage, id, ref, false).records();
  }

  /** The bucket's records and, for verification, what is wrong with its function. */
  public static Contents readChecked(ArchiveStorage storage, ArchiveId id, BucketRef ref)
      throws IOException {
    return read(storage, id, ref, true);
  }

  private static Contents read(ArchiveStorage storage, ArchiveId id, BucketRef ref,
      boolean checkFunction) throws IOException {
    if (ref.recordCount() == 0) {
      return new Contents(new ArrayList<>(), null);
    }
    String file = storage.location(ref.indexFile());
    byte[] bytes;
    try (ArchiveInput in = storage.open(ref.indexFile(), ref.indexFileLength())) {
      if (in.length() != ref.indexFileLength()) {
        throw new CorruptArchiveException(file, in.length(), "index file is " + in.length()
            + " bytes, the directory says " + ref.indexFileLength());
      }
      if (in.length() > MAX_INDEX_FILE) {
        // The writer never writes one larger than a block; reading it whole would not fit.
        throw new CorruptArchiveException(file, in.length(), "index file of " + in.length()
            + " bytes is larger than any index file hpf writes (" + MAX_INDEX_FILE + ")");
      }
      bytes = in.readFully(0, (int) in.length());
    } catch (EOFException e) {
      throw new CorruptArchiveException(file, "index file is truncated", e);
    }
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    FileHeader.check(buf, file, FileKind.INDEX, id);
    FileFooter.check(bytes, file);
    IndexHeader header = IndexHeader.read(buf, file, FileHeader.version(buf, 0));
    if (header.recordCount() != ref.recordCount() || header.fileLength() != bytes.length) {
      throw new CorruptArchiveException(file, FileHeader.SIZE, "index header " + header
          + " disagrees with the directory's " + ref);
    }
    List<IndexRecord> records = new ArrayList<>(header.recordCount());
    int start = (int) header.recordsOffset();
    RecordLayout.Span span = new RecordLayout.Span(header.layout(),
        java.util.Arrays.copyOfRange(bytes, start, bytes.length), 0, header.recordCount(), file,
        start, header.commonAccess());
    for (int i = 0; i < header.recordCount(); i++) {
      records.add(span.record(i));
    }
    return new Contents(records, checkFunction ? functionProblem(header, bytes, records, file)
        : null);
  }

  private static String functionProblem(IndexHeader header, byte[] bytes,
      List<IndexRecord> records, String file) {
    BucketFunction function;
    try {
      function = BucketFunction.fromBytes(header.functionCodec(), bytes,
          FileHeader.SIZE + IndexHeader.sizeOf(header.version()), header.functionLength(),
          header.recordCount(), file);
    } catch (CorruptArchiveException e) {
      return e.getMessage();
    }
    for (int i = 0; i < records.size(); i++) {
      long slot;
      try {
        slot = function.slotOf(records.get(i).hash());
      } catch (RuntimeException | AssertionError e) {
        return "the function cannot be evaluated (" + e + ")";
      }
      if (slot != i) {
        return "the function maps record " + i + "'s hash to " + slot;
      }
    }
    return null;
  }
}
