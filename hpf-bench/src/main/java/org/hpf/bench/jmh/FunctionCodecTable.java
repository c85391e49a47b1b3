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
 * <p>Given an archive's path, it then reports that archive's index bytes per file as written,
 * and as they would be with codec 1 (2 above the base): each bucket's records read back and
 * their function built with sux4j, the rest of the index file unchanged.
 *
 * <pre>java -cp hpf-bench/target/hpf-bench.jar:... org.hpf.bench.jmh.FunctionCodecTable [ARCHIVE]</pre>
 */
public final class FunctionCodecTable {
  private static final int BUILDS = 5;
  private static final int LOOKUPS = 1_000_000;

  private FunctionCodecTable() {}

  public static void main(String[] args) throws java.io.IOException {
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
    if (args.length > 0) {
      indexBytesPerFile(new org.apache.hadoop.fs.Path(new java.io.File(args[0]).toURI()));
    }
  }

  private static void indexBytesPerFile(org.apache.hadoop.fs.Path archive)
      throws java.io.IOException {
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
    org.hpf.internal.io.HadoopStorage storage = new org.hpf.internal.io.HadoopStorage(
        org.apache.hadoop.fs.FileSystem.getLocal(conf), archive, (short) 0);
    long indexBytes = 0;
    long hollowTrieIndexBytes = 0;
    try (org.hpf.internal.read.HpfReader reader = org.hpf.internal.read.HpfReader.open(conf,
        archive)) {
      for (int layer = 0; layer < reader.layers().size(); layer++) {
        for (var bucket : reader.layers().get(layer).buckets()) {
          if (bucket.recordCount() == 0) {
            continue;
          }
          List<byte[]> keys = new ArrayList<>();
          for (var record : org.hpf.internal.index.IndexFileReader.readRecords(storage,
              reader.manifest().archiveId(), bucket)) {
            keys.add(record.hash().toBytes());
          }
          indexBytes += bucket.indexFileLength();
          hollowTrieIndexBytes += bucket.indexFileLength() - bucket.functionLength()
              + BucketFunction.buildHollowTrie(keys, layer > 0).toBytes().length;
        }
      }
      long files = reader.manifest().fileCount();
      System.out.printf(Locale.ROOT, "%n%,d files: index %.2f bytes per file (codecs 3 and 4), "
          + "%.2f with codecs 1 and 2%n", files, indexBytes / (double) files,
          hollowTrieIndexBytes / (double) files);
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
