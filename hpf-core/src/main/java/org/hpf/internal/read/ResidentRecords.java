package org.hpf.internal.read;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.hpf.internal.io.ArchiveInput;

/**
 * The records section of one index file, read whole once its bucket has served enough lookups to
 * pay for it, so that every later lookup in the bucket reads nothing. A lookup's own read costs
 * about one round trip whatever its size up to {@link #BYTES_PER_LOOKUP}; reading the section
 * costs about one more per that many bytes. Reading it once the lookups have cost as much (the
 * rule of renting skis until their price is spent) never spends more than twice what the best
 * choice in hindsight would have, and a reader that makes one get (a new client's) never reads
 * a large section at all. A section that costs more than one lookup's read is read on a
 * thread of its own, while the lookup that decided it reads its own records: no get waits for
 * a read of megabytes (at 10^5 members such gets were a share of the warm gets' slowest 1%).
 * Lookups still check the checksum of their record's group on every use, so damage is reported
 * as before.
 */
final class ResidentRecords {
  /** Bytes of a section that cost about as much to read as one lookup's own read. */
  static final long BYTES_PER_LOOKUP = 128 << 10;

  private static final ResidentRecords NEVER =
      new ResidentRecords(new IndexMemory(0), 0, 0, Long.MAX_VALUE);

  private final IndexMemory memory;
  private final long sectionOffset;
  private final int sectionLength;
  private final long lookupsBeforeRead;
  private final AtomicLong lookups = new AtomicLong();
  private final AtomicBoolean reading = new AtomicBoolean();
  private volatile byte[] section;
  /** Set when the bucket closes: a read finishing after that gives its memory back at once. */
  private boolean released;

  private ResidentRecords(IndexMemory memory, long sectionOffset, int sectionLength,
      long lookupsBeforeRead) {
    this.memory = memory;
    this.sectionOffset = sectionOffset;
    this.sectionLength = sectionLength;
    this.lookupsBeforeRead = lookupsBeforeRead;
  }

  /**
   * The section from {@code offset}, {@code length} bytes long; it stays in the file unless
   * {@code mayHold} (the reader's index fits its memory), and is read only while
   * {@code memory} has room for it.
   */
  static ResidentRecords of(boolean mayHold, IndexMemory memory, long offset, long length) {
    if (!mayHold || length > Integer.MAX_VALUE - 16) {
      return NEVER;
    }
    return new ResidentRecords(memory, offset, (int) length, 1 + length / BYTES_PER_LOOKUP);
  }

  /**
   * The section's bytes, from the start of the records section, or null while each lookup
   * reads its own records. Counts this lookup, and reads the section if that makes it worth it
   * and the memory has room (one thread reads; the others go on reading their records
   * meanwhile).
   */
  byte[] bytes(ArchiveInput index) throws IOException {
    if (this == NEVER) {
      return null; // shared by every bucket that never holds: no counter for all threads to bump
    }
    byte[] held = section;
    if (held != null || lookups.incrementAndGet() < lookupsBeforeRead
        || !reading.compareAndSet(false, true)) {
      return held;
    }
    if (!memory.reserve(sectionLength)) {
      reading.set(false); // a later lookup tries again, once other readers gave memory back
      return null;
    }
    if (sectionLength <= BYTES_PER_LOOKUP) {
      return read(index); // costs what this lookup's own read would
    }
    BackgroundReads.THREADS.execute(() -> {
      try {
        read(index);
      } catch (IOException | RuntimeException e) {
        // the lookups read their own records; a later one tries again
      }
    });
    return null;
  }

  /** Reads the section into the memory reserved for it, or gives the memory back. */
  private byte[] read(ArchiveInput index) throws IOException {
    try {
      byte[] read = new byte[sectionLength];
      index.readFully(sectionOffset, read, 0, read.length);
      synchronized (this) {
        if (released) {
          memory.release(sectionLength);
        } else {
          section = read;
        }
      }
      return read;
    } catch (IOException | RuntimeException e) {
      memory.release(sectionLength);
      reading.set(false); // a later lookup tries again
      throw e;
    }
  }

  /** Bytes held: the section's once read, else 0. */
  long heldBytes() {
    return section == null ? 0 : sectionLength;
  }

  /** Gives the section's memory back, now or when a read under way ends; the bucket closes. */
  synchronized void release() {
    released = true;
    if (section != null) {
      section = null;
      memory.release(sectionLength);
    }
  }
}
