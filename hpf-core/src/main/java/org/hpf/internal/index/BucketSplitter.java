package org.hpf.internal.index;

import com.google.common.collect.PeekingIterator;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.hpf.HashCollisionException;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.IndexRecord;

/**
 * Cuts records streamed in {@link BucketOrder} into extendible-hashing buckets of at most
 * {@code capacity} records, holding at most {@code capacity + 1} records at a time.
 *
 * <p>A bucket (prefix, depth) stays whole when it has at most {@code capacity} records and
 * otherwise splits into (prefix, depth + 1) and (prefix | 1 << depth, depth + 1): the same
 * buckets that inserting the records one by one into an extendible hash table produces, since
 * with inserts only a bucket splits exactly when its records outnumber the capacity. In bucket
 * order the first half's records come first, so looking {@code capacity + 1} records ahead
 * decides every split.
 */
public final class BucketSplitter {
  /** Receives each finished bucket, in bucket order; {@code records} are in bucket order. */
  @FunctionalInterface
  public interface Sink {
    void bucket(int prefix, int depth, List<IndexRecord> records) throws IOException;
  }

  private final int capacity;
  private final PeekingIterator<IndexRecord> source;
  private final Sink sink;
  private final ArrayDeque<IndexRecord> ahead = new ArrayDeque<>();

  public BucketSplitter(int capacity, PeekingIterator<IndexRecord> source, Sink sink) {
    if (capacity < 1) {
      throw new IllegalArgumentException("bucket capacity must be positive: " + capacity);
    }
    this.capacity = capacity;
    this.source = source;
    this.sink = sink;
  }

  /**
   * Builds the buckets of the subtree (prefix, depth) from the records at the head of the
   * stream that belong to it; records past it stay in the stream.
   */
  public void build(int prefix, int depth) throws IOException {
    int count = countAhead(prefix, depth);
    if (count <= capacity) {
      List<IndexRecord> records = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        records.add(ahead.poll());
      }
      sink.bucket(prefix, depth, records);
      return;
    }
    if (depth >= DirectoryFile.MAX_DEPTH) {
      throw new HashCollisionException("more than " + capacity + " records share the low "
          + DirectoryFile.MAX_DEPTH + " bits of their hashes; the bucket cannot be split");
    }
    build(prefix, depth + 1);
    build(prefix | (1 << depth), depth + 1);
  }

  /** Records in the subtree at the head, counted up to {@code capacity + 1}. */
  private int countAhead(int prefix, int depth) {
    int count = 0;
    for (IndexRecord record : ahead) {
      if (!BucketOrder.inBucket(record.hash(), prefix, depth) || count > capacity) {
        return count;
      }
      count++;
    }
    while (count <= capacity && source.hasNext()
        && BucketOrder.inBucket(source.peek().hash(), prefix, depth)) {
      ahead.add(source.next());
      count++;
    }
    return count;
  }
}
