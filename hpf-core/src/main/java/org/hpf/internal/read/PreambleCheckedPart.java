package org.hpf.internal.read;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ForwardingInput;
import org.hpf.internal.io.ReadRange;

/**
 * A part file whose preamble (header and part id) is checked while its first entry is read, not
 * before: the two positioned reads overlap, which saves a reader's first get from a part one
 * round trip. The check starts with the first read, so a part opened and never read (opened ahead
 * of a get that needed another) costs no read. No read returns before the check has passed; a
 * damaged preamble fails every read, and a check that failed to read is tried again by the next
 * read.
 */
final class PreambleCheckedPart extends ForwardingInput {
  /** The check of a part's preamble. */
  @FunctionalInterface
  interface Check {
    void run(ArchiveInput part) throws IOException;
  }

  private final Check check;
  private volatile CompletableFuture<Void> checked;

  PreambleCheckedPart(ArchiveInput part, Check check) {
    super(part);
    this.check = check;
  }

  /** The check, started by the first read (and by a read after a check that could not read). */
  private CompletableFuture<Void> check() {
    CompletableFuture<Void> current = checked;
    if (current == null) {
      synchronized (this) {
        if (checked == null) {
          checked = start();
        }
        current = checked;
      }
    }
    return current;
  }

  private CompletableFuture<Void> start() {
    return CompletableFuture.runAsync(() -> {
      try {
        check.run(delegate);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }, BackgroundReads.THREADS);
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length)
      throws IOException {
    CompletableFuture<Void> current = check();
    super.readFully(position, buffer, offset, length);
    await(current);
  }

  /** The part's own file's vectored read, when it has one: this wrapper changes no byte. */
  @Override
  public boolean readsVectored() {
    return delegate.readsVectored();
  }

  @Override
  public void readRanges(List<ReadRange> ranges) throws IOException {
    CompletableFuture<Void> current = check();
    delegate.readRanges(ranges);
    await(current);
  }

  private void await(CompletableFuture<Void> current) throws IOException {
    try {
      current.join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause() instanceof UncheckedIOException io ? io.getCause()
          : e.getCause();
      if (!(cause instanceof CorruptArchiveException)) {
        synchronized (this) {
          if (checked == current) {
            checked = start(); // the read failed, the part may be fine: check it again
          }
        }
      }
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IOException(cause);
    }
  }
}
