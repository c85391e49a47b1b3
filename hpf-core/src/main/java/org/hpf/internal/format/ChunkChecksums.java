package org.hpf.internal.format;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.zip.CRC32C;

/**
 * The chunk checksums of a large raw member's entry (docs/FORMAT.md, "Part"): a CRC32C of each
 * {@link #CHUNK_SIZE} bytes of the member (the last chunk may be shorter), stored as a table
 * after its bytes, so that a read of any range checks exactly the chunks it covers before a
 * byte of them is handed out.
 */
public final class ChunkChecksums {
  /** Bytes per chunk. */
  public static final int CHUNK_SIZE = 64 * 1024;
  /** Raw members longer than this carry chunk checksums: the ones readers read in place. */
  public static final long THRESHOLD = 1 << 20;

  private ChunkChecksums() {}

  /** Whether a member stored with this codec and length carries chunk checksums. */
  public static boolean apply(Codec codec, long length) {
    return codec == Codec.RAW && length > THRESHOLD;
  }

  /** Chunks of a member of {@code length} bytes. */
  public static long count(long length) {
    return (length + CHUNK_SIZE - 1) / CHUNK_SIZE;
  }

  /** Length of the table of a member of {@code length} bytes. */
  public static long tableBytes(long length) {
    return 4 * count(length);
  }

  /** Computes the table as a member's bytes go by, in order. */
  public static final class Builder {
    private final ByteArrayOutputStream table = new ByteArrayOutputStream();
    private final DataOutputStream out = new DataOutputStream(table);
    private final CRC32C chunk = new CRC32C();
    private int inChunk;

    public void update(byte[] bytes, int offset, int length) {
      while (length > 0) {
        int n = Math.min(length, CHUNK_SIZE - inChunk);
        chunk.update(bytes, offset, n);
        inChunk += n;
        offset += n;
        length -= n;
        if (inChunk == CHUNK_SIZE) {
          endChunk();
        }
      }
    }

    private void endChunk() {
      try {
        out.writeInt((int) chunk.getValue());
      } catch (IOException e) {
        throw new IllegalStateException(e); // a ByteArrayOutputStream does not fail
      }
      chunk.reset();
      inChunk = 0;
    }

    /** The table of every byte given so far. */
    public byte[] table() {
      if (inChunk > 0) {
        endChunk();
      }
      return table.toByteArray();
    }
  }
}
