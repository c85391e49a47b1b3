package org.hpf.internal.read;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32C;
import org.hpf.internal.format.ChunkChecksums;

/**
 * A stream over a {@link CheckedMember}, buffered one chunk at a time (whole chunks, so each is
 * read and checked once), that can seek: every byte it returns was checked. Read in order from
 * its first byte to its last, a member with chunk checksums is also checked against its content
 * checksum at the end. Not thread-safe, as streams are not.
 */
public final class CheckedMemberStream extends InputStream {
  private final CheckedMember member;
  private final byte[] buffer;
  private long bufferStart;
  private int bufferLength;
  private long position;
  private final CRC32C crc = new CRC32C();
  /** Bytes checksummed in order from byte 0; -1 once a seek broke the order. */
  private long inOrder;

  public CheckedMemberStream(CheckedMember member) {
    this.member = member;
    this.buffer = new byte[(int) Math.min(ChunkChecksums.CHUNK_SIZE,
        Math.max(1, member.length()))];
    this.inOrder = member.chunked() ? 0 : -1; // a member without chunks was checked whole
  }

  public long length() {
    return member.length();
  }

  public long position() {
    return position;
  }

  /** Moves to {@code target} (0 to the length). */
  public void seek(long target) {
    if (target < 0 || target > member.length()) {
      throw new IllegalArgumentException("seek to " + target + " of " + member.length());
    }
    position = target;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (position >= member.length()) {
      return -1;
    }
    if (position < bufferStart || position >= bufferStart + bufferLength) {
      fill();
    }
    int n = (int) Math.min(len, bufferStart + bufferLength - position);
    System.arraycopy(buffer, (int) (position - bufferStart), b, off, n);
    checksumInOrder(b, off, n);
    position += n;
    return n;
  }

  /** Fills the buffer with the chunk that holds the position. */
  private void fill() throws IOException {
    bufferStart = position - position % buffer.length;
    bufferLength = (int) Math.min(buffer.length, member.length() - bufferStart);
    member.read(bufferStart, buffer, 0, bufferLength);
  }

  private void checksumInOrder(byte[] b, int off, int n) throws IOException {
    if (inOrder != position) {
      inOrder = -1;
      return;
    }
    crc.update(b, off, n);
    inOrder += n;
    if (inOrder == member.length()) {
      EntryChecks.checkContent((int) crc.getValue(), member.storedChecksum(),
          member.part().name(), member.entryOffset(), member.name());
    }
  }

  @Override
  public long skip(long n) {
    long skipped = Math.max(0, Math.min(n, member.length() - position));
    position += skipped;
    return skipped;
  }

  @Override
  public int available() {
    return (int) Math.min(Integer.MAX_VALUE, member.length() - position);
  }
}
