package org.hpf.internal.format;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.hpf.CorruptArchiveException;

/**
 * The extendible-hashing directory as stored (docs/FORMAT.md, "Directory"): global depth, the
 * buckets with what a reader needs to load them, and the slot table.
 */
public record DirectoryFile(int globalDepth, List<BucketRef> buckets, int[] slots) {
  public static final int MAX_DEPTH = 24;

  /** One bucket and its index file. */
  public record BucketRef(int localDepth, long indexGeneration, int bucketId, int recordCount,
      int functionLength, long indexFileLength) {

    public String indexFile() {
      return ArchiveLayout.index(indexGeneration, bucketId);
    }
  }

  public DirectoryFile {
    buckets = List.copyOf(buckets);
  }

  /** Equal directories have equal buckets and slot tables (compared by content). */
  @Override
  public boolean equals(Object other) {
    return other instanceof DirectoryFile d && globalDepth == d.globalDepth
        && buckets.equals(d.buckets) && java.util.Arrays.equals(slots, d.slots);
  }

  @Override
  public int hashCode() {
    return 31 * buckets.hashCode() + java.util.Arrays.hashCode(slots);
  }

  @Override
  public String toString() {
    return "DirectoryFile[globalDepth=" + globalDepth + ", buckets=" + buckets + ", slots="
        + java.util.Arrays.toString(slots) + "]";
  }

  /** The slot of a hash: the low {@code globalDepth} bits of {@code lo}. */
  public static int slotOf(NameHash hash, int depth) {
    return (int) (hash.low() & ((1L << depth) - 1));
  }

  public BucketRef bucketOf(NameHash hash) {
    return buckets.get(slots[slotOf(hash, globalDepth)]);
  }

  public byte[] toBytes(ArchiveId id) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ChecksummedOutput out = new ChecksummedOutput(bytes);
    DataOutputStream data = out.data();
    FileHeader.write(data, FileKind.DIRECTORY, id);
    writeBody(data);
    out.writeFooter();
    return bytes.toByteArray();
  }

  /** Bytes of the body: what a manifest of version 2 carries for each layer. */
  public int bodyLength() {
    return 1 + 4 + 29 * buckets.size() + 4 * slots.length;
  }

  /** Writes the body: GlobalDepth, BucketCount, the buckets and the slots. */
  public void writeBody(DataOutputStream data) throws IOException {
    data.writeByte(globalDepth);
    data.writeInt(buckets.size());
    for (BucketRef b : buckets) {
      data.writeByte(b.localDepth());
      data.writeLong(b.indexGeneration());
      data.writeInt(b.bucketId());
      data.writeInt(b.recordCount());
      data.writeInt(b.functionLength());
      data.writeLong(b.indexFileLength());
    }
    for (int slot : slots) {
      data.writeInt(slot);
    }
  }

  /** Parses and checks a directory body: every slot must point where extendible hashing says. */
  public static DirectoryFile parse(ByteBuffer buf, String file) throws CorruptArchiveException {
    try {
      int depth = buf.get() & 0xFF;
      if (depth > MAX_DEPTH) {
        throw new CorruptArchiveException(file, buf.position() - 1, "global depth " + depth
            + " exceeds " + MAX_DEPTH);
      }
      int count = buf.getInt();
      if (count < 1 || count > (1 << depth) || count > buf.remaining() / 29) {
        throw new CorruptArchiveException(file, buf.position() - 4, "bad bucket count " + count);
      }
      List<BucketRef> buckets = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        BucketRef b = new BucketRef(buf.get() & 0xFF, buf.getLong(), buf.getInt(), buf.getInt(),
            buf.getInt(), buf.getLong());
        if (b.localDepth() > depth || b.recordCount() < 0 || b.functionLength() < 0
            || b.indexFileLength() < 0) {
          throw new CorruptArchiveException(file, buf.position() - 29,
              "bucket " + i + " has impossible fields: " + b);
        }
        buckets.add(b);
      }
      if (buf.remaining() < (4L << depth)) { // checked before the slots are allocated
        throw new CorruptArchiveException(file, buf.position(), "directory of global depth "
            + depth + " needs " + (4L << depth) + " bytes of slots, " + buf.remaining()
            + " are left");
      }
      int[] slots = new int[1 << depth];
      for (int i = 0; i < slots.length; i++) {
        slots[i] = buf.getInt();
      }
      if (buf.hasRemaining()) {
        throw new CorruptArchiveException(file, buf.position(),
            buf.remaining() + " unexpected bytes after the slots");
      }
      checkSlots(depth, buckets, slots, file);
      return new DirectoryFile(depth, buckets, slots);
    } catch (BufferUnderflowException e) {
      throw SealedFile.truncatedBody(file, buf, e);
    }
  }

  private static void checkSlots(int depth, List<BucketRef> buckets, int[] slots, String file)
      throws CorruptArchiveException {
    int[] pointers = new int[buckets.size()];
    int[] prefix = new int[buckets.size()];
    java.util.Arrays.fill(prefix, -1);
    for (int slot = 0; slot < slots.length; slot++) {
      int b = slots[slot];
      if (b < 0 || b >= buckets.size()) {
        throw new CorruptArchiveException(file, 0, "slot " + slot + " points to bucket " + b
            + " of " + buckets.size());
      }
      int low = slot & ((1 << buckets.get(b).localDepth()) - 1);
      if (prefix[b] == -1) {
        prefix[b] = low;
      } else if (prefix[b] != low) {
        throw new CorruptArchiveException(file, 0, "slots " + slot + " and another disagree on the "
            + "low bits of bucket " + b);
      }
      pointers[b]++;
    }
    for (int b = 0; b < buckets.size(); b++) {
      int expected = 1 << (depth - buckets.get(b).localDepth());
      if (pointers[b] != expected) {
        throw new CorruptArchiveException(file, 0, "bucket " + b + " has " + pointers[b]
            + " slots, expected " + expected);
      }
    }
  }
}
