package org.hpf.io;

import java.io.Closeable;
import java.io.IOException;

/** A file open for positioned reads; safe for concurrent use by many threads. */
public interface ArchiveInput extends Closeable {

  /** The file's name inside the archive (for messages). */
  String name();

  long length();

  /** Reads exactly {@code length} bytes at {@code position}; EOFException if the file is shorter. */
  void readFully(long position, byte[] buffer, int offset, int length) throws IOException;

  default byte[] readFully(long position, int length) throws IOException {
    byte[] bytes = new byte[length];
    readFully(position, bytes, 0, length);
    return bytes;
  }
}
