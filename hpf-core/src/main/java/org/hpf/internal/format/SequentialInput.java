package org.hpf.internal.format;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import org.hpf.internal.io.ArchiveInput;

/** A buffered InputStream over a range of an {@link ArchiveInput}, read by positioned reads. */
public final class SequentialInput extends InputStream {
  private final ArchiveInput in;
  private final long end;
  private final byte[] buffer;
  private long position;
  private int bufferPos;
  private int bufferLen;

  public SequentialInput(ArchiveInput in, long start, long end, int bufferSize) {
    this.in = in;
    this.position = start;
    this.end = end;
    this.buffer = new byte[(int) Math.max(1, Math.min(bufferSize, end - start))];
  }

  /** Position in the file of the next byte read() returns. */
  public long position() {
    return position - (bufferLen - bufferPos);
  }

  private boolean fill() throws IOException {
    if (position >= end) {
      return false;
    }
    int n = (int) Math.min(buffer.length, end - position);
    in.readFully(position, buffer, 0, n);
    position += n;
    bufferPos = 0;
    bufferLen = n;
    return true;
  }

  @Override
  public int read() throws IOException {
    if (bufferPos == bufferLen && !fill()) {
      return -1;
    }
    return buffer[bufferPos++] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (bufferPos == bufferLen) {
      if (len >= buffer.length && position < end) {
        int n = (int) Math.min(len, end - position);
        in.readFully(position, b, off, n);
        position += n;
        return n;
      }
      if (!fill()) {
        return -1;
      }
    }
    int n = Math.min(len, bufferLen - bufferPos);
    System.arraycopy(buffer, bufferPos, b, off, n);
    bufferPos += n;
    return n;
  }

  /** Reads exactly {@code len} bytes or throws EOFException. */
  public void readFully(byte[] b, int off, int len) throws IOException {
    while (len > 0) {
      int n = read(b, off, len);
      if (n < 0) {
        throw new EOFException(in.name() + ": unexpected end at " + position());
      }
      off += n;
      len -= n;
    }
  }
}
