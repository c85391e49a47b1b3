package org.hpf.internal.read;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import org.hpf.HpfException;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ForwardingInput;
import org.hpf.internal.io.ReadRange;

/**
 * A file of the reader's generation. An object store's client may ask the store nothing until
 * the first read (S3A's classic stream, given the file's length): a file that a writer removed
 * since is then found missing by a read, which reports it as the open would have, stale reader
 * or damaged archive, never as a bare FileNotFoundException.
 */
final class GenerationFile extends ForwardingInput {
  /** What a missing file means for the reader. */
  @FunctionalInterface
  interface Missing {
    HpfException of(String name, FileNotFoundException e) throws IOException;
  }

  private final Missing missing;

  GenerationFile(ArchiveInput file, Missing missing) {
    super(file);
    this.missing = missing;
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length)
      throws IOException {
    try {
      delegate.readFully(position, buffer, offset, length);
    } catch (FileNotFoundException e) {
      throw missing.of(name(), e);
    }
  }

  /** Changes no byte: the file's own vectored read serves it. */
  @Override
  public boolean readsVectored() {
    return delegate.readsVectored();
  }

  @Override
  public void readRanges(List<ReadRange> ranges) throws IOException {
    try {
      delegate.readRanges(ranges);
    } catch (FileNotFoundException e) {
      throw missing.of(name(), e);
    }
  }
}
