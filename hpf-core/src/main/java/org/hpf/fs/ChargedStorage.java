package org.hpf.fs;

import java.io.IOException;
import java.util.List;
import java.util.function.LongConsumer;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.ForwardingInput;
import org.hpf.internal.io.ForwardingStorage;
import org.hpf.internal.io.ReadRange;

/**
 * The storage of an archive that the file system reads: every byte read of its parts, index
 * files and manifests is passed to a charge (the read-ahead's budget) as it is read, whichever
 * thread reads it. Names segments are not charged: only listings read them, and a listing
 * serves no member.
 */
final class ChargedStorage extends ForwardingStorage {
  private final LongConsumer charge;

  ChargedStorage(ArchiveStorage delegate, LongConsumer charge) {
    super(delegate);
    this.charge = charge;
  }

  @Override
  public ArchiveInput open(String name) throws IOException {
    return charged(name, delegate().open(name));
  }

  @Override
  public ArchiveInput open(String name, long length) throws IOException {
    return charged(name, delegate().open(name, length));
  }

  private ArchiveInput charged(String name, ArchiveInput file) {
    return ArchiveLayout.isNames(name) ? file : new ChargedInput(file, charge);
  }

  /** A file whose reads are charged as they are made. */
  private static final class ChargedInput extends ForwardingInput {
    private final LongConsumer charge;

    ChargedInput(ArchiveInput file, LongConsumer charge) {
      super(file);
      this.charge = charge;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length)
        throws IOException {
      charge.accept(length);
      super.readFully(position, buffer, offset, length);
    }

    @Override
    public boolean readsVectored() {
      return delegate.readsVectored();
    }

    @Override
    public void readRanges(List<ReadRange> ranges) throws IOException {
      long bytes = 0;
      for (ReadRange range : ranges) {
        bytes += range.buffer().length;
      }
      charge.accept(bytes);
      delegate.readRanges(ranges);
    }
  }
}
