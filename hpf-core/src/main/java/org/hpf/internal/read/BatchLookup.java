package org.hpf.internal.read;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.NameHash;
import org.hpf.internal.format.RecordLayout;

/**
 * The index records of many names at once, for listings: the names' slots are found by the
 * bucket functions (in memory), and slots of one bucket that lie close together are read with
 * one read of the run of records between them. A positioned read of up to about 64 KB costs
 * what a read of 40 bytes costs, so a listing of most of an archive reads its index in runs,
 * not a record at a time; a few names scattered over a large bucket are still read one by one.
 */
final class BatchLookup {
  /** Records one read may span: 64 KB. */
  static final int RUN_RECORDS = (64 << 10) / IndexRecord.SIZE;
  /** Slots a run must serve to be read as one: else each is read alone. */
  static final int DENSE = 4;

  /** Loads (or returns the loaded) bucket {@code b} of layer {@code layer}. */
  @FunctionalInterface
  interface Buckets {
    LoadedBucket get(int layer, int b, BucketRef ref) throws IOException;
  }

  private BatchLookup() {}

  /**
   * The record each hash leads to (null for a hash no layer has, or whose newest record is a
   * tombstone), in the order of {@code hashes}; layers are asked newest first, as a single
   * lookup asks them.
   */
  static IndexRecord[] lookUp(List<NameHash> hashes, List<DirectoryFile> layers,
      Buckets buckets) throws IOException {
    IndexRecord[] found = new IndexRecord[hashes.size()];
    List<Integer> pending = new ArrayList<>(hashes.size());
    for (int i = 0; i < hashes.size(); i++) {
      if (hashes.get(i) != null) {
        pending.add(i);
      }
    }
    for (int layer = layers.size() - 1; layer >= 0 && !pending.isEmpty(); layer--) {
      DirectoryFile directory = layers.get(layer);
      // bucket -> slot -> the names that slot may answer
      Map<Integer, TreeMap<Long, List<Integer>>> wanted = new TreeMap<>();
      List<Integer> next = new ArrayList<>();
      for (int i : pending) {
        NameHash hash = hashes.get(i);
        int b = directory.slots()[DirectoryFile.slotOf(hash, directory.globalDepth())];
        BucketRef ref = directory.buckets().get(b);
        long slot = ref.recordCount() == 0 ? -1 : buckets.get(layer, b, ref).slotOf(hash);
        if (slot < 0) {
          next.add(i); // not in this layer
        } else {
          wanted.computeIfAbsent(b, k -> new TreeMap<>())
              .computeIfAbsent(slot, k -> new ArrayList<>()).add(i);
        }
      }
      for (Map.Entry<Integer, TreeMap<Long, List<Integer>>> e : wanted.entrySet()) {
        int b = e.getKey();
        LoadedBucket bucket = buckets.get(layer, b, directory.buckets().get(b));
        for (List<Map.Entry<Long, List<Integer>>> run : runs(e.getValue())) {
          long first = run.get(0).getKey();
          long last = run.get(run.size() - 1).getKey();
          RecordLayout.Span span = run.size() >= DENSE ? bucket.readRecords(first, last) : null;
          for (Map.Entry<Long, List<Integer>> slot : run) {
            long s = slot.getKey();
            IndexRecord record = (span != null ? span : bucket.readRecords(s, s)).record(s);
            for (int i : slot.getValue()) {
              if (record.hash().equals(hashes.get(i))) {
                bucket.remember(s, record);
                found[i] = record.isTombstone() ? null : record;
              } else {
                next.add(i); // the slot holds another name: not in this layer
              }
            }
          }
        }
      }
      pending = next;
    }
    return found;
  }

  /** The wanted slots cut into runs that each fit one read. */
  private static List<List<Map.Entry<Long, List<Integer>>>> runs(
      TreeMap<Long, List<Integer>> slots) {
    List<List<Map.Entry<Long, List<Integer>>>> runs = new ArrayList<>();
    List<Map.Entry<Long, List<Integer>>> run = new ArrayList<>();
    for (Map.Entry<Long, List<Integer>> slot : slots.entrySet()) {
      if (!run.isEmpty() && slot.getKey() - run.get(0).getKey() >= RUN_RECORDS) {
        runs.add(run);
        run = new ArrayList<>();
      }
      run.add(slot);
    }
    if (!run.isEmpty()) {
      runs.add(run);
    }
    return runs;
  }
}
