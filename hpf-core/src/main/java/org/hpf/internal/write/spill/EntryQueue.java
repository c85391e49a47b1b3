package org.hpf.internal.write.spill;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * Entries read back once, in the order they were added, with a heap that does not grow with
 * their number: held in memory up to a fixed budget, then appended to a scratch file (checked
 * by the local file system's checksums when read). Close it to delete its scratch files.
 */
public final class EntryQueue implements Closeable {
  private final Scratch scratch;
  private final String purpose;
  private final long heldMemory;
  /** Entries not spilled; null once they spilled. */
  private List<byte[]> held = new ArrayList<>();
  private long heldBytes;
  private SpillFile spill;
  private long count;
  private boolean read;

  /** A queue that spills, if it must, to a new directory below the scratch directory. */
  public EntryQueue(Scratch scratch, String purpose) {
    this(scratch, purpose, ExternalSorter.HELD_MEMORY);
  }

  /** A queue that spills once its entries take more than {@code heldMemory} of heap. */
  EntryQueue(Scratch scratch, String purpose, long heldMemory) {
    this.scratch = scratch;
    this.purpose = purpose;
    this.heldMemory = heldMemory;
  }

  public void add(byte[] entry) throws IOException {
    if (read) {
      throw new IllegalStateException("entries were already read");
    }
    if (held != null) {
      held.add(Arrays.copyOf(entry, entry.length));
      heldBytes += entry.length + ExternalSorter.ENTRY_OVERHEAD;
      if (heldBytes > heldMemory) {
        spill = new SpillFile(scratch, purpose);
        for (byte[] e : held) {
          spill.append(e, 0, e.length);
        }
        held = null;
      }
    } else {
      spill.append(entry, 0, entry.length);
    }
    count++;
  }

  public long count() {
    return count;
  }

  /** Whether the entries went to a scratch file. */
  boolean spilled() {
    return spill != null;
  }

  /**
   * The entries in the order added. Single use; the iterator's {@code next} throws
   * {@link java.io.UncheckedIOException} if the scratch file cannot be read.
   */
  public Iterator<byte[]> read() throws IOException {
    if (read) {
      throw new IllegalStateException("entries were already read");
    }
    read = true;
    if (spill == null) {
      Iterator<byte[]> entries = held.iterator();
      held = null;
      return entries;
    }
    return spill.inOrder();
  }

  @Override
  public void close() throws IOException {
    held = null;
    if (spill != null) {
      spill.close();
    }
  }
}
