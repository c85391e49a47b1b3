package org.hpf.bench.jmh;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.hpf.internal.format.NameHash;
import org.hpf.internal.index.BucketFunction;

/**
 * The table of docs/FORMAT.md's "Why distinguishing bits": for function codec 1 (sux4j's hollow
 * trie, Java serialized) and codec 3 (distinguishing bits) over one bucket of 10^5 and of 10^6
 * random hashes, the stored bits per key, the build time (median of 5 builds) and the time of a
 * lookup of a key of the bucket (the mean over 10^6 lookups of keys in random order, after as
 * many to warm up), as {@code LoadedBucket.find} evaluates the function before its one read.
 *
 * <pre>java -cp hpf-bench/target/hpf-bench.jar:... org.hpf.bench.jmh.FunctionCodecTable</pre>
 */
public final class FunctionCodecTable {
  private static final int BUILDS = 5;
  private static final int LOOKUPS = 1_000_000;

  private FunctionCodecTable() {}

  public static void main(String[] args) {
    System.out.println("| keys | codec | bits per key (stored) | build (ms) | lookup (us) |");
    System.out.println("|---|---|---|---|---|");
    for (int keys : new int[] {100_000, 1_000_000}) {
      List<NameHash> hashes = sortedHashes(new Random(keys), keys);
      List<byte[]> sorted = new ArrayList<>(keys);
      for (NameHash hash : hashes) {
        sorted.add(hash.toBytes());
      }
      for (int codec : new int[] {BucketFunction.CODEC_HOLLOW_TRIE,
          BucketFunction.CODEC_DISTINGUISHING_BITS}) {
        measure(codec, hashes, sorted);
      }
    }
  }

  private static void measure(int codec, List<NameHash> hashes, List<byte[]> sorted) {
    long[] builds = new long[BUILDS];
    BucketFunction function = null;
    for (int i = 0; i < BUILDS; i++) {
      long start = System.nanoTime();
      function = codec == BucketFunction.CODEC_HOLLOW_TRIE
          ? BucketFunction.buildHollowTrie(sorted, false) : BucketFunction.build(sorted, false);
      builds[i] = System.nanoTime() - start;
    }
    java.util.Arrays.sort(builds);
    double bitsPerKey = function.toBytes().length * 8.0 / hashes.size();
    int[] order = new Random(7).ints(LOOKUPS, 0, hashes.size()).toArray();
    long check = 0;
    for (int i : order) { // warm-up
      check += function.slotOf(hashes.get(i));
    }
    long start = System.nanoTime();
    for (int i : order) {
      long slot = function.slotOf(hashes.get(i));
      if (slot != i) {
        throw new IllegalStateException("codec " + codec + " maps key " + i + " to " + slot);
      }
      check += slot;
    }
    double lookupMicros = (System.nanoTime() - start) / 1e3 / LOOKUPS;
    System.out.printf(Locale.ROOT, "| %,d | %d | %.2f | %.1f | %.2f |%s%n", hashes.size(), codec,
        bitsPerKey, builds[BUILDS / 2] / 1e6, lookupMicros, check == 42 ? " " : "");
  }

  private static List<NameHash> sortedHashes(Random random, int size) {
    java.util.TreeSet<NameHash> hashes = new java.util.TreeSet<>();
    while (hashes.size() < size) {
      hashes.add(new NameHash(random.nextLong(), random.nextLong()));
    }
    return new ArrayList<>(hashes);
  }
}
