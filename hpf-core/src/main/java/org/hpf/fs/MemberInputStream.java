package org.hpf.fs;

import java.io.EOFException;
import java.io.IOException;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.internal.read.CheckedMember;
import org.hpf.internal.read.CheckedMemberStream;

/**
 * A seekable, positionable stream over one member that hands out no byte before it was checked.
 *
 * <p>A raw (uncompressed) member over the in-memory limit is read in place: its bytes are a
 * contiguous range of its part file, read with positioned reads on the part that the archive's
 * reader keeps open, a whole chunk at a time, each chunk checked against the chunk checksum its
 * entry stores before any byte of it is returned ({@link CheckedMember}); a member whose entry
 * has no chunk checksums (written before they existed) is checked whole against its CRC32C by the
 * first read, whatever range that read asks for. A compressed member (at most 16 MiB) is
 * decompressed and verified when opened and served from memory.
 */
final class MemberInputStream extends FSInputStream {
  private final String description;
  private final long length;
  /** The bytes, read and verified when opened; null for a member read in place. */
  private final byte[] bytes;
  /** For a member read in place: its checked bytes, and a stream over them; else null. */
  private final CheckedMember member;
  private final CheckedMemberStream stream;
  private final AutoCloseableIo onClose;
  private FileSystem.Statistics statistics;
  private long position;
  private boolean closed;

  /** Something to release on close (the archive lease). */
  @FunctionalInterface
  interface AutoCloseableIo {
    void close() throws IOException;
  }

  private MemberInputStream(String description, byte[] bytes, CheckedMember member,
      AutoCloseableIo onClose) {
    this.description = description;
    this.bytes = bytes;
    this.member = member;
    this.length = bytes != null ? bytes.length : member.length();
    this.stream = member != null ? new CheckedMemberStream(member) : null;
    this.onClose = onClose;
  }

  /** A stream over bytes already read and verified. */
  static MemberInputStream inMemory(String description, byte[] bytes, AutoCloseableIo onClose) {
    return new MemberInputStream(description, bytes, null, onClose);
  }

  /** A stream over a raw member read in place. */
  static MemberInputStream inPlace(String description, CheckedMember member,
      AutoCloseableIo onClose) {
    return new MemberInputStream(description, null, member, onClose);
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
    if (bytes != null) {
      n = (int) Math.min(len, length - position);
      System.arraycopy(bytes, (int) position, b, off, n);
    } else {
      stream.seek(position);
      n = stream.read(b, off, len);
    }
    position += n;
    count(n);
    return n;
  }

  /** Positioned reads: checked in place, or copied from the verified bytes. */
  private void readAt(long pos, byte[] b, int off, int len) throws IOException {
    if (bytes != null) {
      System.arraycopy(bytes, (int) pos, b, off, len);
    } else {
      member.read(pos, b, off, len);
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
    readAt(pos, b, off, n);
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
    readAt(pos, b, off, len);
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
    }
    onClose.close();
  }

  @Override
  public String toString() {
    return "MemberInputStream(" + description + ", pos " + position + " of " + length + ")";
  }
}
