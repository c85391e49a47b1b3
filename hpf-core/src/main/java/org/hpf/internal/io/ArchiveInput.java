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

  /**
   * Whether {@link #readRanges} is served natively by the file system: one call that reads many
   * ranges at once (Hadoop's vectored read where the stream has the capability). False for
   * wrappers unless they say otherwise, so that what they do to {@link #readFully} applies.
   */
  default boolean readsVectored() {
    return false;
  }

  /**
   * Reads every range fully: by default one positioned read after another; natively where
   * {@link #readsVectored}. EOFException if one passes the end of the file.
   */
  default void readRanges(java.util.List<ReadRange> ranges) throws IOException {
    for (ReadRange range : ranges) {
      readFully(range.position(), range.buffer(), 0, range.buffer().length);
    }
  }

  /**
   * Whether {@link #length} is the length the archive records, taken without asking the store
   * (an object store, where asking costs a request): a file cut short before it was opened then
   * shows only in a read past its end. False where the store gave the length when the file was
   * opened.
   */
  default boolean lengthAsRecorded() {
    return false;
  }

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
