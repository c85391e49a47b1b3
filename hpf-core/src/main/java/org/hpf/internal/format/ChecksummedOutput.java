package org.hpf.internal.format;

import java.io.DataOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32C;

/**
 * Writes a file while keeping its length and the running CRC32C that the footer stores. Callers
 * write the header first and call {@link #writeFooter()} last.
 */
public final class ChecksummedOutput extends FilterOutputStream {
  private final CRC32C crc = new CRC32C();
  private final DataOutputStream data;
  private long position;

  public ChecksummedOutput(OutputStream out) {
    super(out);
    this.data = new DataOutputStream(this);
  }

  /** A DataOutput view that writes through this stream (and its checksum). */
  public DataOutputStream data() {
    return data;
  }

  public long position() {
    return position;
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
    crc.update(b);
    position++;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
    crc.update(b, off, len);
    position += len;
  }

  /** Writes the footer magic and the checksum of everything written so far. */
  public void writeFooter() throws IOException {
    data.writeInt(FileFooter.MAGIC);
    int value = (int) crc.getValue();
    out.write(value >>> 24);
    out.write(value >>> 16);
    out.write(value >>> 8);
    out.write(value);
    position += 4;
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }
}
