package org.hpf.internal.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.hpf.HashCollisionException;
import org.hpf.internal.format.DirectoryFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ExtendibleHashing} with hand-made low hash bits: exact shapes after each insert, the
 * invariants of docs/FORMAT.md ("Directory") on random keys, and the depth limit of 24.
 */
class ExtendibleHashingTest {
  /** Record ids are positions in this list; their low words are the values. */
  private final LongArrayList lows = new LongArrayList();

  private ExtendibleHashing hashing(int capacity) {
    return ExtendibleHashing.empty(capacity, id -> lows.getLong(id));
  }

  private int insert(ExtendibleHashing h, long low) throws HashCollisionException {
    int id = lows.size();
    lows.add(low);
    h.insert(id);
    return id;
  }

  /** The bucket a slot points at. */
  private static ExtendibleHashing.Bucket at(ExtendibleHashing h, int slot) {
    return h.buckets().get(h.slots()[slot]);
  }

  private static int[] members(ExtendibleHashing.Bucket bucket) {
    int[] ids = bucket.members().toIntArray();
    Arrays.sort(ids);
    return ids;
  }

  /** Checks every invariant of a directory and its buckets; returns the record count. */
  private int assertInvariants(ExtendibleHashing h, int capacity) {
    int g = h.globalDepth();
    int[] slots = h.slots();
    List<ExtendibleHashing.Bucket> buckets = h.buckets();
    assertTrue(g >= 0 && g <= DirectoryFile.MAX_DEPTH);
    assertEquals(1 << g, slots.length, "slot table of global depth " + g);
    int[] pointers = new int[buckets.size()];
    int maxDepth = 0;
    for (int slot = 0; slot < slots.length; slot++) {
      ExtendibleHashing.Bucket b = buckets.get(slots[slot]);
      int d = b.localDepth();
      int at = slot;
      // Messages as suppliers: built only on failure, not once per slot of up to 2^24.
      assertEquals(b.prefix(), slot & ((1 << d) - 1), () -> "slot " + at + " points at a bucket "
          + "of depth " + d + " and prefix " + b.prefix());
      pointers[slots[slot]]++;
    }
    boolean[] seen = new boolean[lows.size()];
    int records = 0;
    for (int i = 0; i < buckets.size(); i++) {
      ExtendibleHashing.Bucket b = buckets.get(i);
      int d = b.localDepth();
      maxDepth = Math.max(maxDepth, d);
      assertTrue(d <= g);
      assertTrue(b.prefix() >= 0 && b.prefix() < (1 << d), "prefix within " + d + " bits");
      assertEquals(1 << (g - d), pointers[i], "bucket " + i + " of depth " + d);
      assertTrue(b.members().size() <= capacity, "bucket " + i + " over capacity");
      for (int id : b.members()) {
        int bucket = i;
        assertEquals(b.prefix(), (int) (lows.getLong(id) & ((1L << d) - 1)),
            () -> "record " + id + " in bucket " + bucket);
        assertTrue(!seen[id], () -> "record " + id + " in two buckets");
        seen[id] = true;
        records++;
      }
    }
    assertEquals(maxDepth, g, "the directory is no deeper than its deepest bucket");
    return records;
  }

  @Test
  void capacityMustBePositive() {
    assertThrows(IllegalArgumentException.class, () -> hashing(0));
    assertThrows(IllegalArgumentException.class, () -> hashing(-1));
  }

  @Test
  void startsWithOneEmptyBucketOfDepthZero() {
    ExtendibleHashing h = hashing(1);
    assertEquals(0, h.globalDepth());
    assertArrayEquals(new int[] {0}, h.slots());
    assertEquals(1, h.buckets().size());
    assertEquals(0, h.buckets().get(0).localDepth());
    assertEquals(0, h.buckets().get(0).members().size());
  }

  /**
   * Capacity 1, keys ...000, ...001, ...010, ...011, ...110 inserted one at a time: the exact
   * directory after each insert.
   */
  @Test
  void splitsStepByStep() throws HashCollisionException {
    ExtendibleHashing h = hashing(1);
    int k0 = insert(h, 0b000);
    assertEquals(0, h.globalDepth(), "one record fits");
    assertEquals(1, h.buckets().size());

    // Bucket of depth 0 == global depth 0 overflows: the table doubles to 2 slots.
    int k1 = insert(h, 0b001);
    assertEquals(1, h.globalDepth());
    assertEquals(2, h.buckets().size());
    assertArrayEquals(new int[] {k0}, members(at(h, 0)));
    assertArrayEquals(new int[] {k1}, members(at(h, 1)));
    assertEquals(1, at(h, 0).localDepth());
    assertEquals(1, at(h, 1).localDepth());
    assertEquals(2, assertInvariants(h, 1));

    // Slot 0's bucket (depth 1 == global 1) overflows: the table doubles, slot 2 + its copies.
    ExtendibleHashing.Bucket odd = at(h, 1);
    int k2 = insert(h, 0b010);
    assertEquals(2, h.globalDepth());
    assertEquals(3, h.buckets().size());
    assertArrayEquals(new int[] {k0}, members(at(h, 0)));
    assertArrayEquals(new int[] {k2}, members(at(h, 2)));
    assertEquals(2, at(h, 0).localDepth());
    assertEquals(2, at(h, 2).localDepth());
    assertEquals(0b10, at(h, 2).prefix());
    // Slot 3 = 1 + 2^1 copied slot 1: the untouched depth-1 bucket is pointed at twice.
    assertTrue(at(h, 1) == odd && at(h, 3) == odd, "slots 1 and 3 keep the odd bucket");
    assertEquals(1, odd.localDepth());
    assertEquals(3, assertInvariants(h, 1));

    // The odd bucket (depth 1 < global 2) overflows: it splits without doubling the table and
    // exactly its slot with bit 1 set (slot 3) is re-pointed.
    int[] before = h.slots();
    int k3 = insert(h, 0b011);
    assertEquals(2, h.globalDepth(), "no doubling below the global depth");
    assertEquals(4, h.buckets().size());
    int[] after = h.slots();
    assertEquals(before[0], after[0]);
    assertEquals(before[1], after[1]);
    assertEquals(before[2], after[2]);
    assertTrue(before[3] != after[3], "slot 3 re-pointed");
    assertArrayEquals(new int[] {k1}, members(at(h, 1)));
    assertArrayEquals(new int[] {k3}, members(at(h, 3)));
    assertEquals(2, at(h, 1).localDepth(), "local depth grew by one");
    assertEquals(2, at(h, 3).localDepth(), "local depth grew by one");
    assertEquals(4, assertInvariants(h, 1));

    // Key 0b110 lands on slot 2 with key 0b010: they differ in bit 2, so one doubling (to 8
    // slots) and one split; every other bucket is now pointed at by two slots.
    int k4 = insert(h, 0b110);
    assertEquals(3, h.globalDepth());
    assertEquals(5, h.buckets().size());
    assertArrayEquals(new int[] {k2}, members(at(h, 0b010)));
    assertArrayEquals(new int[] {k4}, members(at(h, 0b110)));
    assertEquals(3, at(h, 0b010).localDepth());
    assertEquals(3, at(h, 0b110).localDepth());
    for (int slot : new int[] {0b000, 0b001, 0b011}) {
      assertTrue(at(h, slot) == at(h, slot + 4), "slot " + (slot + 4) + " copies slot " + slot);
      assertEquals(2, at(h, slot).localDepth());
    }
    assertEquals(5, assertInvariants(h, 1));
  }

  /**
   * Two keys that first differ in bit 3 under capacity 1: the bucket splits again and again
   * (each split leaving an empty sibling) until depth 4 separates them.
   */
  @Test
  void cascadingSplits() throws HashCollisionException {
    ExtendibleHashing h = hashing(1);
    int a = insert(h, 0b0000);
    int b = insert(h, 0b1000);
    assertEquals(4, h.globalDepth());
    assertEquals(5, h.buckets().size(), "four splits");
    assertArrayEquals(new int[] {a}, members(at(h, 0b0000)));
    assertArrayEquals(new int[] {b}, members(at(h, 0b1000)));
    assertEquals(4, at(h, 0b0000).localDepth());
    assertEquals(4, at(h, 0b1000).localDepth());
    // The empty siblings born at depths 1, 2 and 3.
    assertEquals(1, at(h, 0b1).localDepth());
    assertEquals(0b1, at(h, 0b1).prefix());
    assertEquals(2, at(h, 0b10).localDepth());
    assertEquals(0b10, at(h, 0b10).prefix());
    assertEquals(3, at(h, 0b100).localDepth());
    assertEquals(0b100, at(h, 0b100).prefix());
    for (int slot : new int[] {0b1, 0b10, 0b100}) {
      assertEquals(0, at(h, slot).members().size());
    }
    assertEquals(2, assertInvariants(h, 1));
  }

  /** Capacity 2: each side of the first split overflows in turn and splits at bit 1. */
  @Test
  void eachSideSplitsWhenItOverflows() throws HashCollisionException {
    ExtendibleHashing h = hashing(2);
    // The third key forces a split at bit 0 (doubling to 2 slots); 0b010 overflows the even
    // side (doubling to 4 slots), 0b011 the odd side (depth 1 < 2: no doubling).
    long[] keys = {0b000, 0b100, 0b001, 0b101, 0b010, 0b011, 0b110, 0b111};
    for (long key : keys) {
      insert(h, key);
      assertInvariants(h, 2);
    }
    assertEquals(keys.length, assertInvariants(h, 2));
    assertEquals(2, h.globalDepth(), "pairs agreeing on the low 2 bits fill 4 buckets");
    assertEquals(4, h.buckets().size());
    for (int slot = 0; slot < 4; slot++) {
      assertEquals(2, at(h, slot).members().size());
    }
  }

  /** Random keys and capacities: every invariant after every insert. */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 7, 100})
  void randomKeysKeepTheInvariants(int capacity) throws HashCollisionException {
    long seed = Long.getLong("hpf.test.seed", new SecureRandom().nextLong());
    Random random = new Random(seed);
    ExtendibleHashing h = hashing(capacity);
    int n = 1500;
    // At most `capacity` keys share their low 20 bits: the directory stays within 2^20 slots
    // (more than 24 shared bits cannot be split at all; depth 24 has its own test).
    java.util.Map<Long, Integer> sharing = new java.util.HashMap<>();
    for (int i = 0; i < n; i++) {
      long key = random.nextLong();
      if (sharing.merge(key & 0xFFFFF, 1, Integer::sum) > capacity) {
        i--;
        continue;
      }
      int globalBefore = h.globalDepth();
      int bucketsBefore = h.buckets().size();
      List<Integer> depths = new ArrayList<>();
      for (ExtendibleHashing.Bucket b : h.buckets()) {
        depths.add(b.localDepth());
      }
      insert(h, key);
      // A bucket's depth only grows, and by one per split it takes part in.
      int splits = h.buckets().size() - bucketsBefore;
      for (int b = 0; b < bucketsBefore; b++) {
        int grew = h.buckets().get(b).localDepth() - depths.get(b);
        int bucket = b;
        assertTrue(grew >= 0 && grew <= splits, () -> "seed " + seed + ": bucket " + bucket
            + " grew by " + grew + " in " + splits + " splits");
      }
      assertTrue(h.globalDepth() - globalBefore <= splits, "seed " + seed);
      if (i % 151 == 0 || i == n - 1) {
        assertEquals(i + 1, assertInvariants(h, capacity), "seed " + seed);
      }
    }
  }

  /** Capacity 1 with keys that first differ in bit 23 still fits: depth 24 is allowed. */
  @Test
  void depth24IsTheDeepestDirectory() throws HashCollisionException {
    ExtendibleHashing h = hashing(1);
    long low = 0x5A5A5A5A_00345678L & ~(1L << 23);
    insert(h, low);
    insert(h, low | (1L << 23));
    assertEquals(DirectoryFile.MAX_DEPTH, h.globalDepth());
    assertEquals(25, h.buckets().size());
    assertEquals(2, assertInvariants(h, 1));
  }

  /** More keys than the capacity sharing all 24 low bits cannot be separated. */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 5})
  void keysSharingTheLow24BitsBeyondCapacity(int capacity) throws HashCollisionException {
    ExtendibleHashing h = hashing(capacity);
    long low24 = 0xABCDEF;
    for (int i = 0; i < capacity; i++) {
      insert(h, ((long) (i + 1) << 24) | low24); // differ only above bit 23
    }
    assertEquals(0, h.globalDepth(), "up to the capacity they share a bucket unsplit");
    lows.add(((long) (capacity + 1) << 40) | low24);
    assertThrows(HashCollisionException.class, () -> h.insert(lows.size() - 1));
  }

  /** A directory as stored: the buckets of {@code h} as refs of generation 1. */
  private static DirectoryFile stored(ExtendibleHashing h) {
    List<DirectoryFile.BucketRef> refs = new ArrayList<>();
    for (int b = 0; b < h.buckets().size(); b++) {
      ExtendibleHashing.Bucket bucket = h.buckets().get(b);
      int n = bucket.members().size();
      refs.add(n == 0 ? new DirectoryFile.BucketRef(bucket.localDepth(), 0, 0, 0, 0, 0)
          : new DirectoryFile.BucketRef(bucket.localDepth(), 1, b, n, 10, 100 + b));
    }
    return new DirectoryFile(h.globalDepth(), refs, h.slots());
  }

  /**
   * A committed directory reopened with {@code of}: every bucket is its stored self, unchanged,
   * with prefixes and slots as stored; loading one bucket with more records than the capacity
   * splits only that bucket, and the untouched buckets keep their refs.
   */
  @Test
  void reopensAStoredDirectoryAndChangesOnlyLoadedBuckets() throws HashCollisionException {
    ExtendibleHashing built = hashing(2);
    long[] keys = {0b000, 0b100, 0b001, 0b011, 0b010};
    List<Integer> ids = new ArrayList<>();
    for (long key : keys) {
      ids.add(insert(built, key));
    }
    assertEquals(5, assertInvariants(built, 2));
    DirectoryFile directory = stored(built);
    ExtendibleHashing h = ExtendibleHashing.of(directory, 2, id -> lows.getLong(id));
    assertEquals(directory.globalDepth(), h.globalDepth());
    assertArrayEquals(directory.slots(), h.slots());
    assertEquals(directory.buckets().size(), h.buckets().size());
    for (int b = 0; b < h.buckets().size(); b++) {
      ExtendibleHashing.Bucket bucket = h.buckets().get(b);
      assertTrue(bucket.original() == directory.buckets().get(b), "bucket " + b + " is stored");
      assertTrue(!bucket.changed() && bucket.members() == null, "bucket " + b + " unchanged");
      assertEquals(built.buckets().get(b).prefix(), bucket.prefix(), "prefix of " + b);
      assertEquals(built.buckets().get(b).localDepth(), bucket.localDepth());
    }
    for (int id : ids) {
      assertEquals(built.bucketOf(lows.getLong(id)), h.bucketOf(lows.getLong(id)));
    }
    // Inserting into a bucket that was not loaded is a programming error.
    lows.add(0b1000);
    int extra = lows.size() - 1;
    assertThrows(IllegalStateException.class, () -> h.insert(extra));
    // Load the bucket of slot 0 (keys 000 and 100) with one more key, 1000: over capacity, it
    // splits at bit 2 (100 goes) and the directory doubles; the other buckets stay as stored.
    int b0 = h.bucketOf(0);
    it.unimi.dsi.fastutil.ints.IntArrayList members = new it.unimi.dsi.fastutil.ints.IntArrayList(
        built.buckets().get(b0).members());
    members.add(extra);
    h.load(b0, members);
    assertEquals(3, h.globalDepth());
    assertEquals(directory.buckets().size() + 1, h.buckets().size());
    for (int b = 0; b < directory.buckets().size(); b++) {
      ExtendibleHashing.Bucket bucket = h.buckets().get(b);
      if (b == b0) {
        assertTrue(bucket.changed(), "the loaded bucket changed");
        assertTrue(bucket.original() == null, "a split bucket is new");
        assertEquals(3, bucket.localDepth());
      } else {
        assertTrue(!bucket.changed() && bucket.original() == directory.buckets().get(b),
            "bucket " + b + " untouched");
      }
    }
    ExtendibleHashing.Bucket sibling = h.buckets().get(h.buckets().size() - 1);
    assertTrue(sibling.changed() && sibling.original() == null);
    assertEquals(0b100, sibling.prefix());
    assertEquals(1, sibling.members().size());
    assertEquals(0b100, lows.getLong(sibling.members().getInt(0)));
    assertEquals(2, h.buckets().get(b0).members().size(), "000 and 1000 stay");
    // Slots still agree with every bucket's prefix.
    int[] slots = h.slots();
    for (int slot = 0; slot < slots.length; slot++) {
      ExtendibleHashing.Bucket bucket = h.buckets().get(slots[slot]);
      assertEquals(bucket.prefix(), slot & ((1 << bucket.localDepth()) - 1), "slot " + slot);
    }
    // A loaded bucket takes inserts.
    lows.add(0b10000);
    h.insert(lows.size() - 1);
    assertEquals(4, h.globalDepth(), "000, 1000 and 10000 split at bit 3");
    for (ExtendibleHashing.Bucket bucket : h.buckets()) {
      assertTrue(!bucket.changed() || bucket.members().size() <= 2, "within capacity");
    }
    assertEquals(2, h.buckets().get(h.bucketOf(0b10000)).members().size());
  }

  /** A bucket can be loaded with fewer records than it had (deletions): nothing splits. */
  @Test
  void loadingWithFewerRecordsKeepsTheShape() throws HashCollisionException {
    ExtendibleHashing built = hashing(1);
    for (long key : new long[] {0b00, 0b01, 0b10, 0b11}) {
      insert(built, key);
    }
    DirectoryFile directory = stored(built);
    ExtendibleHashing h = ExtendibleHashing.of(directory, 1, id -> lows.getLong(id));
    int b = h.bucketOf(0b10);
    h.load(b, new it.unimi.dsi.fastutil.ints.IntArrayList());
    assertEquals(directory.globalDepth(), h.globalDepth());
    assertArrayEquals(directory.slots(), h.slots());
    assertTrue(h.buckets().get(b).changed());
    assertEquals(0, h.buckets().get(b).members().size());
    assertTrue(h.buckets().get(b).original() == directory.buckets().get(b),
        "a loaded bucket that did not split keeps its stored ref");
  }

  /** Identical keys up to the capacity are fine (the index rejects equal 128-bit hashes). */
  @Test
  void identicalLowWordsWithinCapacity() throws HashCollisionException {
    ExtendibleHashing h = hashing(3);
    for (int i = 0; i < 3; i++) {
      insert(h, 42);
    }
    insert(h, 43);
    assertEquals(4, assertInvariants(h, 3));
    assertEquals(1, h.globalDepth());
    assertEquals(3, at(h, 0).members().size());
  }
}
