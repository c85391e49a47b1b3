package org.hpf.bench.jmh;

import java.util.ArrayList;
import java.util.List;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.NameHash;
import org.hpf.internal.format.NameHasher;
import org.hpf.internal.index.BucketFunction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Directory + bucket function evaluation for a hashed name: models {@code HpfReader.find}
 * picking the bucket ({@code DirectoryFile.slotOf} on the in-memory directory) and {@code
 * LoadedBucket.find} evaluating the bucket's monotone minimal perfect hash function ({@code
 * BucketFunction.slotOf}) to get the record's slot, with the codec of the index layers above the
 * base ({@code 4}: distinguishing bits + 16-bit fingerprints) or the one before it ({@code 2}:
 * sux4j's HollowTrie + fingerprints). The function holds {@code keys} hashes, as one bucket of an
 * archive of that many files.
 */
public class BucketLookupBench extends JmhBase {
  @Param({"10000", "100000"})
  public int keys;

  @Param({"4", "2"})
  public int codec;

  NameHash[] hashes;
  int[] slots;
  BucketFunction function;
  int next;

  @Setup
  public void setup() {
    String[] names = names(keys);
    hashes = new NameHash[keys];
    List<byte[]> sorted = new ArrayList<>(keys);
    for (int i = 0; i < keys; i++) {
      hashes[i] = NameHasher.MURMUR3_128.hash(names[i]);
    }
    NameHash[] copy = hashes.clone();
    java.util.Arrays.sort(copy);
    for (NameHash h : copy) {
      sorted.add(h.toBytes());
    }
    function = codec == BucketFunction.CODEC_HOLLOW_TRIE_FINGERPRINTS
        ? BucketFunction.buildHollowTrie(sorted, true) : BucketFunction.build(sorted, true);
    slots = new int[] {0}; // a directory of depth 0: every hash in bucket 0
  }

  @Benchmark
  public long lookup() {
    NameHash hash = hashes[next++ % keys];
    int bucket = slots[DirectoryFile.slotOf(hash, 0)];
    return function.slotOf(hash) + bucket;
  }
}
