package org.hpf.internal.write.spill;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
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
 * Entries (byte arrays) are appended to a scratch file as they come; {@link #sort()} then sorts
 * them with Hadoop's own {@link SequenceFile.Sorter}: runs sorted in a bounded buffer, written to
 * the scratch directory and merged. Scratch files live on the local file system, whose checksums
 * (Hadoop's {@code .crc} files) catch a scratch file damaged between write and read.
 *
 * <p>{@link #add} is thread-safe. Close the sorter to delete its scratch files.
 */
public final class ExternalSorter implements Closeable {
  /** Orders entries by their bytes (without Hadoop's length prefix). */
  @FunctionalInterface
  public interface EntryOrder {
    int compare(byte[] a, int aOffset, int aLength, byte[] b, int bOffset, int bLength);
  }

  /** Memory for one sort pass: a quarter holds the entries of a run (SequenceFile.Sorter). */
  static final int SORT_MEMORY = 32 << 20;
  /** Runs merged at once. */
  static final int MERGE_FACTOR = 100;

  private final LocalFileSystem local;
  private final Configuration conf;
  private final Path dir;
  private final Path input;
  private final EntryOrder order;
  private final BytesWritable key = new BytesWritable();
  private SequenceFile.Writer writer;
  private long count;
  private long bytes;
  private boolean sorted;

  /** A sorter whose scratch files go to a new directory below {@code scratchRoot}. */
  public ExternalSorter(Scratch scratch, String purpose, EntryOrder order) throws IOException {
    this.local = scratch.fileSystem();
    this.conf = scratch.conf();
    this.dir = new Path(scratch.root(), purpose + "-" + UUID.randomUUID());
    this.input = new Path(dir, "unsorted");
    this.order = order;
    local.mkdirs(dir);
    this.writer = SequenceFile.createWriter(conf, SequenceFile.Writer.file(input),
        SequenceFile.Writer.keyClass(BytesWritable.class),
        SequenceFile.Writer.valueClass(NullWritable.class),
        SequenceFile.Writer.compression(SequenceFile.CompressionType.NONE));
  }

  public synchronized void add(byte[] entry, int offset, int length) throws IOException {
    if (sorted) {
      throw new IllegalStateException("entries were already sorted");
    }
    key.set(entry, offset, length);
    writer.append(key, NullWritable.get());
    count++;
    bytes += length;
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
    writer.close();
    writer = null;
    if (count == 0) {
      return new Sorted(null);
    }
    SequenceFile.Sorter sorter = new SequenceFile.Sorter(local, new Comparator(order),
        BytesWritable.class, NullWritable.class, conf);
    sorter.setMemory(SORT_MEMORY);
    sorter.setFactor(MERGE_FACTOR);
    return new Sorted(sorter.sortAndIterate(new Path[] {input}, new Path(dir, "runs"), true));
  }

  @Override
  public synchronized void close() throws IOException {
    try {
      if (writer != null) {
        writer.close();
        writer = null;
      }
    } finally {
      local.delete(dir, true);
    }
  }

  /** Sorted entries, each a fresh array; close to release the runs' files. */
  public static final class Sorted implements Iterator<byte[]>, Closeable {
    private final SequenceFile.Sorter.RawKeyValueIterator runs;
    private byte[] next;
    private boolean done;

    Sorted(SequenceFile.Sorter.RawKeyValueIterator runs) {
      this.runs = runs;
      this.done = runs == null;
    }

    @Override
    public boolean hasNext() {
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
