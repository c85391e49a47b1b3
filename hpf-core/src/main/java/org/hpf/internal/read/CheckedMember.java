package org.hpf.internal.read;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.ChunkChecksums;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.SequentialInput;
import org.hpf.internal.io.ArchiveInput;

/**
 * A raw member read in place from its part, any range at a time, that hands out no byte before
 * it was checked. A member whose entry has chunk checksums is read in whole chunks, each checked
 * against its checksum; a member without them (entries of part version 1, and members under the
 * threshold that a caller reads in place) is read and checked whole once, by the first read, and
 * then served. Thread-safe: positioned reads may run concurrently.
 */
public final class CheckedMember {
  /** Chunks read and checked by one positioned read, at most. */
  private static final int CHUNKS_PER_READ = 16;
  /** Chunk checksums loaded by one read of the table. */
  private static final int TABLE_SLICE = 1024;

  private final ArchiveInput part;
  private final long entryOffset;
  private final String name;
  private final String description;
  private final long start;
  private final long length;
  private final boolean chunked;
  private final long tableOffset;
  private final int[][] tableSlices;
  private volatile boolean wholeChecked;

  /**
   * @param header the entry's header, already checked against its index record and name
   * @param name the member's name, for checksum errors ({@link EntryChecks})
   * @param description how other errors name the member (its name and archive, or its path)
   */
  CheckedMember(ArchiveInput part, long entryOffset, EntryHeader header, String name,
      String description) {
    this.part = part;
    this.entryOffset = entryOffset;
    this.name = name;
    this.description = description;
    this.start = entryOffset + header.size();
    this.length = header.storedLength();
    this.chunked = header.chunked();
    this.tableOffset = start + length;
    long slices = (ChunkChecksums.count(length) + TABLE_SLICE - 1) / TABLE_SLICE;
    this.tableSlices = new int[chunked ? (int) slices : 0][];
  }

  public long length() {
    return length;
  }

  /** Whether its entry has chunk checksums (else the first read checks it whole). */
  public boolean chunked() {
    return chunked;
  }

  /** The part the member is read from. */
  public ArchiveInput part() {
    return part;
  }

  /** The CRC32C of the whole member, as its entry stores it. */
  public int storedChecksum() throws IOException {
    return ByteBuffer.wrap(readPart(tableOffset + tableBytes(), EntryHeader.TRAILER_SIZE))
        .getInt();
  }

  /** Where in its part the member's entry starts (for messages). */
  public long entryOffset() {
    return entryOffset;
  }

  public String name() {
    return name;
  }

  public String description() {
    return description;
  }

  private long tableBytes() {
    return chunked ? ChunkChecksums.tableBytes(length) : 0;
  }

  /**
   * Reads the member's bytes {@code [position, position + len)} into {@code b}: all of them
   * checked, or none handed out (CorruptArchiveException).
   */
  public void read(long position, byte[] b, int off, int len) throws IOException {
    if (position < 0 || len < 0 || position + len > length) {
      throw new EOFException(description + ": read of " + len + " bytes at " + position
          + " passes its end (" + length + " bytes)");
    }
    if (!chunked) {
      checkWhole();
      readPart(start + position, b, off, len);
      return;
    }
    int chunk = ChunkChecksums.CHUNK_SIZE;
    byte[] scratch = null;
    long end = position + len;
    while (position < end) {
      long first = position / chunk;
      long last = Math.min((end - 1) / chunk, first + CHUNKS_PER_READ - 1);
      long from = first * chunk;
      int span = (int) (Math.min(length, (last + 1) * chunk) - from);
      if (scratch == null || scratch.length < span) {
        scratch = new byte[span];
      }
      readPart(start + from, scratch, 0, span);
      for (long c = first; c <= last; c++) {
        int at = (int) ((c - first) * chunk);
        checkChunk(c, scratch, at, Math.min(chunk, span - at));
      }
      int n = (int) (Math.min(end, from + span) - position);
      System.arraycopy(scratch, (int) (position - from), b, off, n);
      off += n;
      position += n;
    }
  }

  private void checkChunk(long chunk, byte[] bytes, int at, int n) throws IOException {
    CRC32C crc = new CRC32C();
    crc.update(bytes, at, n);
    long from = chunk * ChunkChecksums.CHUNK_SIZE;
    EntryChecks.checkChunk((int) crc.getValue(), storedChunkChecksum(chunk), part.name(),
        entryOffset, name, from, from + n - 1);
  }

  private int storedChunkChecksum(long chunk) throws IOException {
    int slice = (int) (chunk / TABLE_SLICE);
    int[] crcs;
    synchronized (tableSlices) {
      crcs = tableSlices[slice];
    }
    if (crcs == null) {
      long firstChunk = (long) slice * TABLE_SLICE;
      int count = (int) Math.min(TABLE_SLICE, ChunkChecksums.count(length) - firstChunk);
      ByteBuffer table = ByteBuffer.wrap(readPart(tableOffset + 4 * firstChunk, 4 * count));
      crcs = new int[count];
      table.asIntBuffer().get(crcs);
      synchronized (tableSlices) {
        tableSlices[slice] = crcs;
      }
    }
    return crcs[(int) (chunk % TABLE_SLICE)];
  }

  /** Reads the whole member once and compares its CRC32C with the stored one. */
  private void checkWhole() throws IOException {
    if (wholeChecked) {
      return;
    }
    synchronized (this) {
      if (wholeChecked) {
        return;
      }
      CRC32C crc = new CRC32C();
      SequentialInput in = new SequentialInput(part, start, start + length, 1 << 20);
      byte[] buffer = new byte[(int) Math.min(1 << 16, Math.max(1, length))];
      int n;
      try {
        while ((n = in.read(buffer, 0, buffer.length)) > 0) {
          crc.update(buffer, 0, n);
        }
      } catch (EOFException e) {
        throw EntryChecks.truncated(description, part, entryOffset, e);
      }
      EntryChecks.checkContent((int) crc.getValue(), storedChecksum(), part.name(),
          entryOffset, name);
      wholeChecked = true;
    }
  }

  private byte[] readPart(long position, int len) throws IOException {
    byte[] bytes = new byte[len];
    readPart(position, bytes, 0, len);
    return bytes;
  }

  private void readPart(long position, byte[] b, int off, int len) throws IOException {
    try {
      part.readFully(position, b, off, len);
    } catch (EOFException e) {
      throw EntryChecks.truncated(description, part, entryOffset, e);
    }
  }

  /**
   * Checks the chunk checksums of a whole entry already in memory ({@code entry} from its
   * first byte; its header says it is chunked).
   */
  static void checkChunks(byte[] entry, EntryHeader header, String file, long entryOffset,
      String name) throws CorruptArchiveException {
    int dataAt = header.size();
    int length = (int) header.storedLength();
    ByteBuffer table = ByteBuffer.wrap(entry, dataAt + length, (int) header.tableBytes());
    int chunk = ChunkChecksums.CHUNK_SIZE;
    CRC32C crc = new CRC32C();
    for (int from = 0; from < length; from += chunk) {
      int n = Math.min(chunk, length - from);
      crc.reset();
      crc.update(entry, dataAt + from, n);
      EntryChecks.checkChunk((int) crc.getValue(), table.getInt(), file, entryOffset, name,
          from, from + n - 1);
    }
  }
}
