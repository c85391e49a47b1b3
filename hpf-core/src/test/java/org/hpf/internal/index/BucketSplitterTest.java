package org.hpf.internal.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.common.collect.Iterators;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.hpf.HashCollisionException;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.NameHash;
import org.junit.jupiter.api.Test;

/**
 * The streaming splitter against the reference model: records streamed in bucket order must
 * come out in exactly the buckets (prefix, depth, members) that inserting them one by one into
 * an extendible hash table gives, empty buckets included, and in bucket order.
 */
class BucketSplitterTest {
  @Test
  void cutsTheBucketsThatInsertingOneByOneMakes() throws IOException {
    SplittableRandom random = new SplittableRandom(20261123);
    for (int trial = 0; trial < 300; trial++) {
      int capacity = 1 + random.nextInt(40);
      int count = random.nextInt(3000);
      // Few distinct low words in some trials, so buckets split deep and leave empty siblings
      // (but never more than fit one bucket per low word: that is a collision, tested below).
      int lowBits = random.nextBoolean() ? 64 : 4 + random.nextInt(12);
      List<IndexRecord> records = new ArrayList<>();
      java.util.Map<Long, Integer> perLow = new java.util.HashMap<>();
      while (records.size() < count && perLow.size() < (lowBits == 64 ? count : 1 << lowBits)) {
        long low = lowBits == 64 ? random.nextLong() : random.nextLong() & ((1L << lowBits) - 1);
        if (perLow.merge(low, 1, Integer::sum) <= capacity) {
          records.add(new IndexRecord(new NameHash(records.size(), low), 0, 0, records.size(),
              1, 1));
        }
      }
      long[] lows = records.stream().mapToLong(r -> r.hash().low()).toArray();

      TreeMap<String, List<Long>> expected = new TreeMap<>();
      ExtendibleHashing reference = ExtendibleHashing.empty(capacity, id -> lows[id]);
      for (int id = 0; id < records.size(); id++) {
        reference.insert(id);
      }
      for (ExtendibleHashing.Bucket bucket : reference.buckets()) {
        List<Long> offsets = new ArrayList<>();
        IntArrayList members = bucket.members();
        for (int m = 0; m < members.size(); m++) {
          offsets.add(records.get(members.getInt(m)).offset());
        }
        offsets.sort(null);
        expected.put(bucket.prefix() + "/" + bucket.localDepth(), offsets);
      }

      List<IndexRecord> sorted = new ArrayList<>(records);
      sorted.sort((a, b) -> BucketOrder.compare(a.hash(), b.hash()));
      TreeMap<String, List<Long>> actual = new TreeMap<>();
      List<int[]> order = new ArrayList<>();
      BucketSplitter splitter = new BucketSplitter(capacity,
          Iterators.peekingIterator(sorted.iterator()), (prefix, depth, bucket) -> {
            List<Long> offsets = new ArrayList<>();
            for (IndexRecord r : bucket) {
              offsets.add(r.offset());
            }
            offsets.sort(null);
            actual.put(prefix + "/" + depth, offsets);
            order.add(new int[] {prefix, depth});
          });
      splitter.build(0, 0);
      assertEquals(expected, actual, "trial " + trial + ": capacity " + capacity + ", "
          + records.size() + " records");
      for (int i = 1; i < order.size(); i++) {
        assertEquals(-1, Integer.signum(BucketOrder.compareBuckets(order.get(i - 1)[0],
            order.get(i)[0])), "buckets come in bucket order");
      }
    }
  }

  @Test
  void moreRecordsThanFitSharingEveryDirectoryBitIsACollision() {
    List<IndexRecord> records = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      records.add(new IndexRecord(new NameHash(i, 0x5L), 0, 0, i, 1, 1));
    }
    BucketSplitter splitter = new BucketSplitter(2, Iterators.peekingIterator(
        records.iterator()), (prefix, depth, bucket) -> { });
    assertThrows(HashCollisionException.class, () -> splitter.build(0, 0));
  }
}
