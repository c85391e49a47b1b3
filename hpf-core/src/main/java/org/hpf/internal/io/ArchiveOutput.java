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

  /**
   * Syncs and has the file system confirm that this stream still writes its file: on HDFS the
   * sync reaches the NameNode (and makes the length final there for readers), which refuses it
   * once another client recovered the file's lease or the file was deleted. Returns false, doing
   * nothing, where the file system cannot confirm that.
   */
  default boolean confirmWriter() throws IOException {
    return false;
  }

  /**
   * Deletes the file this stream wrote by its identity, not its name, if it still exists: a file
   * that has taken its name since is left alone. Returns false, doing nothing, where the file
   * system cannot delete by identity (HDFS can: by inode id).
   */
  default boolean deleteByIdentity() throws IOException {
    return false;
  }

  /** An output that writes nowhere: a journal where a crashed change is dropped, not redone. */
  static ArchiveOutput discarding() {
    OutputStream nowhere = OutputStream.nullOutputStream();
    return new ArchiveOutput() {
      @Override
      public OutputStream stream() {
        return nowhere;
      }

      @Override
      public void flush() {}

      @Override
      public void sync() {}

      @Override
      public void close() {}
    };
  }
}
