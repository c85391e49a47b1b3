package org.hpf.internal.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;

/** A file being written: a stream plus the durability calls of Hadoop's {@code Syncable}. */
public interface ArchiveOutput extends Closeable {

  OutputStream stream();

  /** Makes written bytes visible to new readers (HDFS {@code hflush}). */
  void flush() throws IOException;

  /** Makes written bytes durable on the storage devices where supported (HDFS {@code hsync}). */
  void sync() throws IOException;
}
