package org.hpf.fs;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.read.EntryChecks;

/**
 * A seekable, positionable stream over one member.
 *
 * <p>A raw (uncompressed) member is read in place: its bytes are a contiguous range of its part
 * file, read with positioned reads on the part that the archive's reader keeps open, through a
 * buffer. Bytes read in order from byte 0 are checksummed as they go, and when the last byte has
 * been read that way the CRC32C is compared with the one the entry stores, so a plain sequential
 * read ({@code -cat}, {@code -get}, distcp, a map task reading a whole file) is verified. A
 * compressed member (at most 16 MiB) is decompressed and verified when opened and served from
 * memory.
 */
final class MemberInputStream extends FSInputStream {
  private static final int BUFFER = 64 * 1024;

  /** Where the member's bytes come from. */
  private interface Bytes {
    void read(long position, byte[] b, int off, int len) throws IOException;
  }

  private final String description;
  private final long length;
  private final Bytes source;
  private final AutoCloseableIo onClose;
  private FileSystem.Statistics statistics;
  /** For in-place members: the part and the offset of the stored CRC32C; else null. */
  private final ArchiveInput part;
  private final long trailerOffset;
  private final CRC32C crc = new CRC32C();
  private long crcPosition;
  private byte[] buffer;
  private long bufferStart;
  private int bufferLength;
  private long position;
  private boolean closed;

  /** Something to release on close (the archive lease). */
  @FunctionalInterface
  interface AutoCloseableIo {
    void close() throws IOException;
  }

  private MemberInputStream(String description, long length, Bytes source, ArchiveInput part,
      long trailerOffset, AutoCloseableIo onClose) {
    this.description = description;
    this.length = length;
    this.source = source;
    this.part = part;
    this.trailerOffset = trailerOffset;
    this.onClose = onClose;
  }

  /** A stream over bytes already read and verified. */
  static MemberInputStream inMemory(String description, byte[] bytes, AutoCloseableIo onClose) {
    return new MemberInputStream(description, bytes.length,
        (pos, b, off, len) -> System.arraycopy(bytes, (int) pos, b, off, len), null, 0, onClose);
  }

  /**
   * A stream over a raw member's {@code length} bytes at {@code start} of {@code part} (in the
   * entry at {@code entryOffset}); the stored CRC32C follows them.
   */
  static MemberInputStream inPlace(String description, ArchiveInput part, long entryOffset,
      long start, long length, AutoCloseableIo onClose) {
    Bytes source = (pos, b, off, len) -> {
      try {
        part.readFully(start + pos, b, off, len);
      } catch (EOFException e) {
        throw EntryChecks.truncated(description, part, entryOffset, e);
      }
    };
    return new MemberInputStream(description, length, source, part, start + length, onClose);
  }

  /** Counts the bytes read in the file system's statistics (job counters show them). */
  MemberInputStream countingIn(FileSystem.Statistics stats) {
    this.statistics = stats;
    return this;
  }

  private void count(int n) {
    if (statistics != null && n > 0) {
      statistics.incrementBytesRead(n);
    }
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkOpen();
    if (target < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + ": " + target + " in "
          + description);
    }
    if (target > length) {
      throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF + ": " + target + " > "
          + length + " in " + description);
    }
    position = target;
  }

  @Override
  public synchronized long getPos() throws IOException {
    checkOpen();
    return position;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }

  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    return (int) Math.min(Integer.MAX_VALUE, length - position);
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    checkOpen();
    if (n <= 0) {
      return 0;
    }
    long skipped = Math.min(n, length - position);
    position += skipped;
    return skipped;
  }

  @Override
  public synchronized int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    checkOpen();
    validate(b, off, len);
    if (len == 0) {
      return 0;
    }
    if (position >= length) {
      return -1;
    }
    int n;
    if (part == null) {
      n = (int) Math.min(len, length - position);
      source.read(position, b, off, n);
    } else {
      if (position < bufferStart || position >= bufferStart + bufferLength) {
        fill();
      }
      n = (int) Math.min(len, bufferStart + bufferLength - position);
      System.arraycopy(buffer, (int) (position - bufferStart), b, off, n);
      checksum(position, b, off, n);
    }
    position += n;
    count(n);
    return n;
  }

  private void fill() throws IOException {
    if (buffer == null) {
      buffer = new byte[(int) Math.min(BUFFER, Math.max(1, length))];
    }
    bufferStart = position;
    bufferLength = (int) Math.min(buffer.length, length - position);
    source.read(bufferStart, buffer, 0, bufferLength);
  }

  /** Checksums bytes read in order from byte 0; verifies after the last one. */
  private void checksum(long at, byte[] b, int off, int n) throws IOException {
    if (at != crcPosition || crcPosition == length) {
      return;
    }
    crc.update(b, off, n);
    crcPosition += n;
    if (crcPosition == length) {
      int stored = ByteBuffer.wrap(part.readFully(trailerOffset, 4)).getInt();
      EntryChecks.checkContent((int) crc.getValue(), stored, part.name(), trailerOffset,
          description);
    }
  }

  @Override
  public int read(long pos, byte[] b, int off, int len) throws IOException {
    validatePositionedReadArgs(pos, b, off, len);
    synchronized (this) {
      checkOpen();
    }
    if (len == 0) {
      return 0;
    }
    if (pos >= length) {
      return -1;
    }
    int n = (int) Math.min(len, length - pos);
    source.read(pos, b, off, n);
    count(n);
    return n;
  }

  @Override
  public void readFully(long pos, byte[] b, int off, int len) throws IOException {
    validatePositionedReadArgs(pos, b, off, len);
    if (len == 0) {
      return;
    }
    synchronized (this) {
      checkOpen();
    }
    if (pos + len > length) {
      throw new EOFException(FSExceptionMessages.EOF_IN_READ_FULLY + ": " + len + " bytes at "
          + pos + " of " + length + " in " + description);
    }
    source.read(pos, b, off, len);
    count(len);
  }

  private static void validate(byte[] b, int off, int len) {
    if (b == null) {
      throw new NullPointerException("null buffer");
    }
    if (off < 0 || len < 0 || len > b.length - off) {
      throw new IndexOutOfBoundsException("offset " + off + ", length " + len + ", buffer "
          + b.length);
    }
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + description);
    }
  }

  @Override
  public void close() throws IOException {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      buffer = null;
    }
    onClose.close();
  }

  @Override
  public String toString() {
    return "MemberInputStream(" + description + ", pos " + position + " of " + length + ")";
  }
}
