package org.hpf.testing;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.ForwardingInput;
import org.hpf.internal.io.ForwardingStorage;

/**
 * A storage that counts the positioned reads of the files it opens, by kind of file: the name up
 * to its first '-' ("index", "part", "names", ...).
 */
public final class ReadCountingStorage extends ForwardingStorage {
  private final Map<String, AtomicLong> reads = new ConcurrentHashMap<>();

  public ReadCountingStorage(ArchiveStorage delegate) {
    super(delegate);
  }

  /** Reads of files of this kind so far. */
  public long reads(String kind) {
    AtomicLong count = reads.get(kind);
    return count == null ? 0 : count.get();
  }

  @Override
  public ArchiveInput open(String name) throws IOException {
    ArchiveInput in = super.open(name);
    AtomicLong count = reads.computeIfAbsent(name.replaceAll("-.*", ""), k -> new AtomicLong());
    return new ForwardingInput(in) {
      @Override
      public void readFully(long position, byte[] buffer, int offset, int length)
          throws IOException {
        count.incrementAndGet();
        super.readFully(position, buffer, offset, length);
      }
    };
  }
}
