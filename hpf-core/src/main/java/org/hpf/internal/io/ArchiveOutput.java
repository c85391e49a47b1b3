package org.hpf.internal.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;

/** A file being written: a stream plus the durability calls of Hadoop's {@code Syncable}. */
public interface ArchiveOutput extends Closeable {

  OutputStream stream();

  /** Makes written bytes visible to new readers (HDFS {@code hflush}). */
  void flush() throws IOException;

  /**
   * Makes written bytes durable on the storage devices where supported (HDFS {@code hsync}).
   * On HDFS that syncs the block being written; the storages create files with SYNC_BLOCK so
   * that each earlier block was synced when it was finalized.
   */
  void sync() throws IOException;
}
