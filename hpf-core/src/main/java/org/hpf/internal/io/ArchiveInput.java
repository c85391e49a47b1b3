package org.hpf.internal.io;

import java.io.Closeable;
import java.io.IOException;

/** A file open for positioned reads; safe for concurrent use by many threads. */
public interface ArchiveInput extends Closeable {

  /** The file's name inside the archive (for messages). */
  String name();

  long length();

  /**
   * Reads exactly {@code length} bytes at {@code position}; EOFException if the file is
   * shorter.
   */
  void readFully(long position, byte[] buffer, int offset, int length) throws IOException;

  /** The file this one reads through, for storages that know their own kind of file. */
  default ArchiveInput unwrap() {
    return this;
  }

  default byte[] readFully(long position, int length) throws IOException {
    if (position < 0 || length < 0 || position + length > length()) {
      // Before allocating: a length read from a crafted file must not size the buffer.
      throw new java.io.EOFException(name() + ": read of " + length + " bytes at " + position
          + " passes the end of the file (" + length() + " bytes)");
    }
    byte[] bytes = new byte[length];
    readFully(position, bytes, 0, length);
    return bytes;
  }
}
