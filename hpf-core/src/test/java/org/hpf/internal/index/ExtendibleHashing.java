package org.hpf.internal.index;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hpf.HashCollisionException;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.format.DirectoryFile;

/**
 * Distributes records over buckets of at most {@code capacity} records by extendible hashing
 * on the low bits of each record's {@code lo} hash word (docs/FORMAT.md, "Directory"), one
 * insert at a time: the textbook algorithm, kept as the reference model that the streaming
 * {@link BucketSplitter} the writers use is checked against.
 *
 * <p>A split of a bucket of local depth d creates one new bucket of depth d+1 for the records
 * whose bit d is 1, re-points exactly the slots of the old bucket whose bit d is 1, and doubles
 * the slot table first only when d equals the global depth.
 */
public final class ExtendibleHashing {
  /**
   * A bucket: its depth, the low bits its records share, and either the stored bucket it is
   * unchanged from ({@link #original()}) or the ids of its records once loaded for change.
   */
  public static final class Bucket {
    private final int localDepth;
    private final int prefix;
    private final BucketRef original;
    private IntArrayList members;

    Bucket(int localDepth, int prefix, BucketRef original, IntArrayList members) {
      this.localDepth = localDepth;
      this.prefix = prefix;
      this.original = original;
      this.members = members;
    }

    /** The stored bucket this one came from, or null for a bucket made by a split or create. */
    public BucketRef original() {
      return original;
    }

    /** True when the bucket's records were loaded or inserted: it needs a new index file. */
    public boolean changed() {
      return members != null;
    }

    public int localDepth() {
      return localDepth;
    }

    public int prefix() {
      return prefix;
    }

    /** Ids of the records in this bucket (null if the bucket was not changed). */
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

  private ExtendibleHashing(int capacity, LowBits lows) {
    if (capacity < 1) {
      throw new IllegalArgumentException("bucket capacity must be positive: " + capacity);
    }
    this.capacity = capacity;
    this.lows = lows;
  }

  /** A directory with one empty bucket, ready for inserts (a create). */
  public static ExtendibleHashing empty(int capacity, LowBits lows) {
    ExtendibleHashing hashing = new ExtendibleHashing(capacity, lows);
    hashing.buckets.add(new Bucket(0, 0, null, new IntArrayList()));
    return hashing;
  }

  /** The directory of a committed generation; buckets must be {@link #load}ed to change. */
  public static ExtendibleHashing of(DirectoryFile directory, int capacity, LowBits lows) {
    ExtendibleHashing hashing = new ExtendibleHashing(capacity, lows);
    hashing.globalDepth = directory.globalDepth();
    hashing.slots = directory.slots().clone();
    int[] prefix = new int[directory.buckets().size()];
    Arrays.fill(prefix, -1);
    for (int s = 0; s < hashing.slots.length; s++) {
      int b = hashing.slots[s];
      if (prefix[b] < 0) {
        prefix[b] = s & ((1 << directory.buckets().get(b).localDepth()) - 1);
      }
    }
    for (int b = 0; b < prefix.length; b++) {
      BucketRef ref = directory.buckets().get(b);
      hashing.buckets.add(new Bucket(ref.localDepth(), prefix[b], ref, null));
    }
    return hashing;
  }

  /** The bucket a low hash word belongs to. */
  public int bucketOf(long low) {
    return slots[slot(low, globalDepth)];
  }

  /** Makes bucket {@code b} changeable with these records (its stored ones, less removals). */
  public void load(int b, IntArrayList recordIds) throws HashCollisionException {
    Bucket old = buckets.get(b);
    buckets.set(b, new Bucket(old.localDepth, old.prefix, old.original, recordIds));
    splitUntilFits(b);
  }

  public void insert(int recordId) throws HashCollisionException {
    int b = slots[slot(lows.of(recordId), globalDepth)];
    Bucket bucket = buckets.get(b);
    if (bucket.members == null) {
      throw new IllegalStateException("bucket " + b + " must be loaded before inserts");
    }
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
    Bucket high = new Bucket(d + 1, old.prefix | (1 << d), null, new IntArrayList());
    Bucket low = new Bucket(d + 1, old.prefix, null, new IntArrayList());
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
