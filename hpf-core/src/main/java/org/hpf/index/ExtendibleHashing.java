package org.hpf.index;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hpf.HashCollisionException;
import org.hpf.format.DirectoryFile;

/**
 * Distributes records over buckets of at most {@code capacity} records by extendible hashing
 * on the low bits of each record's {@code lo} hash word (docs/FORMAT.md, "Directory").
 *
 * <p>A split of a bucket of local depth d creates one new bucket of depth d+1 for the records
 * whose bit d is 1, re-points exactly the slots of the old bucket whose bit d is 1, and doubles
 * the slot table first only when d equals the global depth.
 */
public final class ExtendibleHashing {
  /** A bucket being filled: its depth, the low bits its records share, and their ids. */
  public static final class Bucket {
    private int localDepth;
    private final int prefix;
    private final IntArrayList members = new IntArrayList();

    Bucket(int localDepth, int prefix) {
      this.localDepth = localDepth;
      this.prefix = prefix;
    }

    public int localDepth() {
      return localDepth;
    }

    public int prefix() {
      return prefix;
    }

    /** Ids of the records in this bucket, as given to {@link #insert}. */
    public IntArrayList members() {
      return members;
    }
  }

  /** Gives the {@code lo} hash word of a record id. */
  @FunctionalInterface
  public interface LowBits {
    long of(int recordId);
  }

  private final int capacity;
  private final LowBits lows;
  private final List<Bucket> buckets = new ArrayList<>();
  private int globalDepth;
  private int[] slots = {0};

  public ExtendibleHashing(int capacity, LowBits lows) {
    if (capacity < 1) {
      throw new IllegalArgumentException("bucket capacity must be positive: " + capacity);
    }
    this.capacity = capacity;
    this.lows = lows;
    buckets.add(new Bucket(0, 0));
  }

  public void insert(int recordId) throws HashCollisionException {
    int b = slots[slot(lows.of(recordId), globalDepth)];
    Bucket bucket = buckets.get(b);
    bucket.members.add(recordId);
    if (bucket.members.size() > capacity) {
      splitUntilFits(b);
    }
  }

  private void splitUntilFits(int b) throws HashCollisionException {
    while (buckets.get(b).members.size() > capacity) {
      int sibling = split(b);
      if (buckets.get(sibling).members.size() > capacity) {
        splitUntilFits(sibling);
      }
    }
  }

  /** Splits bucket {@code b}; returns the index of the new bucket (bit d = 1). */
  private int split(int b) throws HashCollisionException {
    Bucket old = buckets.get(b);
    int d = old.localDepth;
    if (d >= DirectoryFile.MAX_DEPTH) {
      throw new HashCollisionException("bucket of " + old.members.size() + " records cannot be "
          + "split below depth " + DirectoryFile.MAX_DEPTH + ": their hashes share the low "
          + DirectoryFile.MAX_DEPTH + " bits");
    }
    if (d == globalDepth) {
      int[] doubled = Arrays.copyOf(slots, slots.length * 2);
      System.arraycopy(slots, 0, doubled, slots.length, slots.length);
      slots = doubled;
      globalDepth++;
    }
    Bucket high = new Bucket(d + 1, old.prefix | (1 << d));
    Bucket low = new Bucket(d + 1, old.prefix);
    for (int i = 0; i < old.members.size(); i++) {
      int id = old.members.getInt(i);
      ((lows.of(id) >>> d & 1) == 0 ? low : high).members.add(id);
    }
    buckets.set(b, low);
    buckets.add(high);
    int newIndex = buckets.size() - 1;
    // The slots of the old bucket are prefix + k * 2^d; those with bit d set move.
    for (int s = high.prefix; s < slots.length; s += 1 << (d + 1)) {
      slots[s] = newIndex;
    }
    return newIndex;
  }

  static int slot(long low, int depth) {
    return (int) (low & ((1L << depth) - 1));
  }

  public int globalDepth() {
    return globalDepth;
  }

  public List<Bucket> buckets() {
    return buckets;
  }

  public int[] slots() {
    return slots.clone();
  }
}
