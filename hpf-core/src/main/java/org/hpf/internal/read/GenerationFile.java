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
 * or damaged archive, never as a bare FileNotFoundException. The client does not always say
 * "not found": a stream it gave up on after the object went away says it is closed. So a read
 * that fails on a file no longer there is reported as missing too.
 */
final class GenerationFile extends ForwardingInput {
  /** What a missing file means for the reader. */
  interface Missing {
    HpfException of(String name, FileNotFoundException e) throws IOException;

    /** Whether the file is still there (asked only after a read of it failed). */
    boolean exists(String name) throws IOException;
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
    } catch (IOException e) {
      throw explained(e);
    }
  }

  /** {@code failure} as {@link Missing} reports it where the file is gone, else itself. */
  private IOException explained(IOException failure) throws IOException {
    if (failure instanceof FileNotFoundException notFound) {
      return missing.of(name(), notFound);
    }
    if (failure instanceof java.io.InterruptedIOException || missing.exists(name())) {
      return failure;
    }
    FileNotFoundException gone = new FileNotFoundException(name() + " is gone: "
        + failure.getMessage());
    gone.initCause(failure);
    return missing.of(name(), gone);
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
    } catch (IOException e) {
      throw explained(e);
    }
  }
}
