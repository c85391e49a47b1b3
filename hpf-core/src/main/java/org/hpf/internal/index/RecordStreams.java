package org.hpf.internal.index;

import com.google.common.collect.AbstractIterator;
import com.google.common.collect.Iterators;
import com.google.common.collect.PeekingIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.hpf.HashCollisionException;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.io.ArchiveStorage;

/**
 * Streams of index records in {@link BucketOrder}, from which layers are built and merged one
 * bucket at a time. An I/O failure inside a stream surfaces as {@link UncheckedIOException}.
 */
public final class RecordStreams {
  private RecordStreams() {}

  /** Decodes sorted records in the writer's scratch form (each checked against its checksum). */
  public static PeekingIterator<IndexRecord> decode(Iterator<byte[]> sorted, String source) {
    return Iterators.peekingIterator(Iterators.transform(sorted, bytes -> {
      try {
        return IndexRecord.fromScratchBytes(bytes, source);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }));
  }

  /** Fails on two records with the same hash in one stream: two names that collide. */
  public static PeekingIterator<IndexRecord> distinct(PeekingIterator<IndexRecord> records) {
    return Iterators.peekingIterator(new AbstractIterator<IndexRecord>() {
      private IndexRecord previous;

      @Override
      protected IndexRecord computeNext() {
        if (!records.hasNext()) {
          return endOfData();
        }
        IndexRecord next = records.next();
        if (previous != null && previous.hash().equals(next.hash())) {
          throw new Collision(new HashCollisionException("two names have the same 128-bit "
              + "hash " + next.hash()));
        }
        previous = next;
        return next;
      }
    });
  }

  /**
   * Every record of a stored layer, bucket by bucket in bucket order (one bucket in memory).
   */
  public static PeekingIterator<IndexRecord> layer(ArchiveStorage storage, ArchiveId id,
      DirectoryFile directory) {
    List<int[]> buckets = new ArrayList<>(); // {prefix, bucket index}
    int[] prefixes = prefixes(directory);
    for (int b = 0; b < directory.buckets().size(); b++) {
      if (directory.buckets().get(b).recordCount() > 0) {
        buckets.add(new int[] {prefixes[b], b});
      }
    }
    buckets.sort((x, y) -> BucketOrder.compareBuckets(x[0], y[0]));
    Iterator<int[]> order = buckets.iterator();
    return Iterators.peekingIterator(Iterators.concat(Iterators.transform(order, bucket -> {
      try {
        List<IndexRecord> records = IndexFileReader.readRecords(storage, id,
            directory.buckets().get(bucket[1]));
        records.sort((a, b) -> BucketOrder.compare(a.hash(), b.hash()));
        return records.iterator();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    })));
  }

  /** The prefix (low {@code localDepth} bits shared by its records) of every bucket. */
  public static int[] prefixes(DirectoryFile directory) {
    int[] prefix = new int[directory.buckets().size()];
    java.util.Arrays.fill(prefix, -1);
    int[] slots = directory.slots();
    for (int s = 0; s < slots.length; s++) {
      int b = slots[s];
      if (prefix[b] < 0) {
        prefix[b] = s & ((1 << directory.buckets().get(b).localDepth()) - 1);
      }
    }
    return prefix;
  }

  /**
   * Merges two streams; for a hash in both, the newer record wins. Tombstones that win are kept
   * (they hide the name in layers below) unless {@code dropTombstones}.
   */
  public static PeekingIterator<IndexRecord> newestWins(PeekingIterator<IndexRecord> older,
      PeekingIterator<IndexRecord> newer, boolean dropTombstones) {
    return Iterators.peekingIterator(new AbstractIterator<IndexRecord>() {
      @Override
      protected IndexRecord computeNext() {
        while (older.hasNext() || newer.hasNext()) {
          IndexRecord next;
          if (!newer.hasNext()) {
            next = older.next();
          } else if (!older.hasNext()) {
            next = newer.next();
          } else {
            int c = BucketOrder.compare(older.peek().hash(), newer.peek().hash());
            if (c < 0) {
              next = older.next();
            } else {
              if (c == 0) {
                older.next();
              }
              next = newer.next();
            }
          }
          if (!(dropTombstones && next.isTombstone())) {
            return next;
          }
        }
        return endOfData();
      }
    });
  }

  public static PeekingIterator<IndexRecord> empty() {
    return Iterators.peekingIterator(Collections.emptyIterator());
  }

  /** Carries a collision out of an iterator; unwrapped by the commit. */
  public static final class Collision extends RuntimeException {
    Collision(HashCollisionException cause) {
      super(cause);
    }

    @Override
    public synchronized HashCollisionException getCause() {
      return (HashCollisionException) super.getCause();
    }
  }
}
