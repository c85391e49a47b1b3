package org.hpf.internal.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.hpf.LimitExceededException;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.ChecksummedOutput;
import org.hpf.internal.format.Checksums;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.format.FileKind;
import org.hpf.internal.format.IndexHeader;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.NameHash;
import org.hpf.internal.format.RecordLayout;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;

/**
 * Writes the index file of one bucket: sorts its records by hash, builds the bucket's function,
 * then writes header, function section and records in function order (docs/FORMAT.md, "Index").
 */
public final class IndexFileWriter {
  /** Room reserved in an index block for the function and headers when sizing buckets. */
  public static final long FUNCTION_RESERVE = 64 * 1024;
  /**
   * Function bytes per key assumed when sizing buckets: measured 0.51 for codec 3, plus 2 for
   * the fingerprints of newer index layers. Hashes made to escape every bit position would take
   * 1.5 and 2; the reserve above absorbs that at the default capacity, and {@link #write}
   * refuses an index file that would outgrow its block rather than write one.
   */
  public static final int FUNCTION_BYTES_PER_KEY = 3;

  private IndexFileWriter() {}

  /** The largest bucket whose index file surely fits in one block of this size. */
  public static int capacityFor(long blockSize) {
    long capacity = (blockSize - FUNCTION_RESERVE) / (IndexRecord.SIZE + FUNCTION_BYTES_PER_KEY);
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE - 8, capacity));
  }

  /**
   * Writes {@code records} (any order, distinct hashes) as bucket {@code bucketId} of
   * {@code generation}.
   */
  public static BucketRef write(ArchiveStorage storage, ArchiveId id, long generation,
      int bucketId, int localDepth, int prefix, List<IndexRecord> records, long blockSize,
      boolean fingerprints) throws IOException {
    List<Integer> order = new ArrayList<>(records.size());
    for (int i = 0; i < records.size(); i++) {
      order.add(i);
    }
    order.sort((a, b) -> records.get(a).hash().compareTo(records.get(b).hash()));
    List<byte[]> keys = new ArrayList<>(records.size());
    NameHash previous = null;
    for (int i = 0; i < order.size(); i++) {
      NameHash hash = records.get(order.get(i)).hash();
      if (hash.equals(previous)) {
        throw new IllegalArgumentException("two records with hash " + hash + " in one bucket");
      }
      previous = hash;
      keys.add(hash.toBytes());
    }
    BucketFunction function = BucketFunction.build(keys, fingerprints);
    byte[] functionBytes = function.toBytes();
    IndexHeader header = accessHeader(records, localDepth, prefix, function.codec(),
        functionBytes.length);
    if (header.fileLength() > blockSize) {
      throw new LimitExceededException("index of bucket " + bucketId + " would take "
          + header.fileLength() + " bytes, more than one block (" + blockSize
          + "); lower the bucket capacity");
    }
    String name = org.hpf.internal.format.ArchiveLayout.index(generation, bucketId);
    try (ArchiveOutput file = storage.create(name, blockSize)) {
      ChecksummedOutput out =
          new ChecksummedOutput(new java.io.BufferedOutputStream(file.stream(), 1 << 16));
      ByteBuffer head = ByteBuffer.allocate(header.size());
      header.writeTo(head);
      FileHeader.write(out.data(), FileKind.INDEX, id);
      out.write(head.array());
      out.write(functionBytes);
      byte[] section = ByteBuffer.allocate(header.size() + functionBytes.length)
          .put(head.array()).put(functionBytes).array();
      out.data().writeInt(Checksums.crc32c(section, 0, section.length));
      List<IndexRecord> inSlotOrder = new ArrayList<>(order.size());
      for (int i : order) {
        inSlotOrder.add(records.get(i));
      }
      header.layout().write(inSlotOrder, out.data());
      out.writeFooter();
      out.flush();
      file.sync();
      if (out.position() != header.fileLength()) {
        throw new IllegalStateException("index length " + out.position() + " != "
            + header.fileLength());
      }
    }
    return new BucketRef(localDepth, generation, bucketId, records.size(), functionBytes.length,
        header.fileLength());
  }

  /**
   * The header of a bucket with these records: the narrowest access width that holds their ids
   * (none when they all share one).
   */
  static IndexHeader accessHeader(List<IndexRecord> records, int localDepth, int prefix,
      int codec, int functionLength) {
    int first = records.isEmpty() ? 0 : records.get(0).access();
    boolean allSame = true;
    int max = 0;
    for (IndexRecord record : records) {
      allSame &= record.access() == first;
      max = Math.max(max, record.access());
    }
    int width = RecordLayout.accessWidth(allSame, max);
    return new IndexHeader(records.size(), localDepth, prefix, codec, functionLength, width,
        width == 0 ? first : 0);
  }
}
