package org.hpf.internal.write.spill;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.WritableComparator;

/**
 * Sorts more entries than fit in memory, with a heap that does not grow with their number.
 * Entries (byte arrays) are held in memory up to a fixed budget, which most changes never reach,
 * and sorted there. Past the budget they spill: held and later entries are appended to a scratch
 * file, and {@link #sort()} sorts them with Hadoop's own {@link SequenceFile.Sorter}: runs sorted
 * in a bounded buffer, written to the scratch directory and merged. Scratch files live on the
 * local file system, whose checksums (Hadoop's {@code .crc} files) catch a scratch file damaged
 * between write and read.
 *
 * <p>{@link #add} is thread-safe. Close the sorter to delete its scratch files.
 */
public final class ExternalSorter implements Closeable {
  /** Orders entries by their bytes (without Hadoop's length prefix). */
  @FunctionalInterface
  public interface EntryOrder {
    int compare(byte[] a, int aOffset, int aLength, byte[] b, int bOffset, int bLength);
  }

  /** Heap that entries may take before they spill: a few tens of thousands of members. */
  static final long HELD_MEMORY = 4 << 20;
  /** Heap an entry takes beyond its bytes: the array's header and the list's reference. */
  static final int ENTRY_OVERHEAD = 24;

  private final Scratch scratch;
  private final String purpose;
  private final EntryOrder order;
  private final long heldMemory;
  /** Entries not spilled, in the order added; null once they spilled. */
  private List<byte[]> held = new ArrayList<>();
  private long heldBytes;
  private SpillFile spill;
  private long count;
  private long bytes;
  private boolean sorted;

  /** A sorter that spills, if it must, to a new directory below the scratch directory. */
  public ExternalSorter(Scratch scratch, String purpose, EntryOrder order) {
    this(scratch, purpose, order, HELD_MEMORY);
  }

  /** A sorter that spills once its entries take more than {@code heldMemory} of heap. */
  ExternalSorter(Scratch scratch, String purpose, EntryOrder order, long heldMemory) {
    this.scratch = scratch;
    this.purpose = purpose;
    this.order = order;
    this.heldMemory = heldMemory;
  }

  public synchronized void add(byte[] entry, int offset, int length) throws IOException {
    if (sorted) {
      throw new IllegalStateException("entries were already sorted");
    }
    if (held != null) {
      held.add(Arrays.copyOfRange(entry, offset, offset + length));
      heldBytes += length + ENTRY_OVERHEAD;
      if (heldBytes > heldMemory) {
        spill = new SpillFile(scratch, purpose);
        for (byte[] e : held) {
          spill.append(e, 0, e.length);
        }
        held = null;
      }
    } else {
      spill.append(entry, offset, length);
    }
    count++;
    bytes += length;
  }

  /** Whether the entries went to scratch files. */
  synchronized boolean spilled() {
    return spill != null;
  }

  public void add(byte[] entry) throws IOException {
    add(entry, 0, entry.length);
  }

  public synchronized long count() {
    return count;
  }

  /** Bytes of entries added (scratch space is a little more). */
  public synchronized long bytes() {
    return bytes;
  }

  /**
   * The entries in order (equal entries adjacent). Single use; the iterator's {@code next}
   * throws {@link UncheckedIOException} if a scratch file cannot be read.
   */
  public synchronized Sorted sort() throws IOException {
    if (sorted) {
      throw new IllegalStateException("entries were already sorted");
    }
    sorted = true;
    if (spill == null) {
      List<byte[]> entries = held;
      held = null;
      entries.sort((a, b) -> order.compare(a, 0, a.length, b, 0, b.length));
      return new Sorted(null, entries.iterator());
    }
    return new Sorted(spill.sort(new Comparator(order)), null);
  }

  @Override
  public synchronized void close() throws IOException {
    held = null;
    if (spill != null) {
      spill.close();
    }
  }

  /**
   * Sorted entries, each a fresh array, from memory or from the runs' files; close to release
   * the files.
   */
  public static final class Sorted implements Iterator<byte[]>, Closeable {
    private final SequenceFile.Sorter.RawKeyValueIterator runs;
    private final Iterator<byte[]> held;
    private byte[] next;
    private boolean done;

    Sorted(SequenceFile.Sorter.RawKeyValueIterator runs, Iterator<byte[]> held) {
      this.runs = runs;
      this.held = held;
    }

    @Override
    public boolean hasNext() {
      if (held != null) {
        return held.hasNext();
      }
      if (next == null && !done) {
        try {
          if (runs.next()) {
            DataOutputBuffer raw = runs.getKey();
            int length = WritableComparator.readInt(raw.getData(), 0);
            next = new byte[length];
            System.arraycopy(raw.getData(), 4, next, 0, length);
          } else {
            done = true;
          }
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read the writer's scratch files: "
              + e.getMessage(), e);
        }
      }
      return next != null;
    }

    @Override
    public byte[] next() {
      if (held != null) {
        return held.next();
      }
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      byte[] result = next;
      next = null;
      return result;
    }

    @Override
    public void close() throws IOException {
      if (runs != null) {
        runs.close();
      }
    }
  }

  /** Hadoop's raw comparator over serialized BytesWritables: a 4-byte length, then the bytes. */
  private static final class Comparator implements RawComparator<BytesWritable> {
    private final EntryOrder order;

    Comparator(EntryOrder order) {
      this.order = order;
    }

    @Override
    public int compare(byte[] a, int aStart, int aLength, byte[] b, int bStart, int bLength) {
      return order.compare(a, aStart + 4, aLength - 4, b, bStart + 4, bLength - 4);
    }

    @Override
    public int compare(BytesWritable a, BytesWritable b) {
      return order.compare(a.getBytes(), 0, a.getLength(), b.getBytes(), 0, b.getLength());
    }
  }
}
