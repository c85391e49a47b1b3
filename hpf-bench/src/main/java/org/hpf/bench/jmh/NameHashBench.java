package org.hpf.bench.jmh;

import org.hpf.format.NameHash;
import org.hpf.format.NameHasher;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * Hashing a member name: models the first step of every lookup, {@code HpfReader.find} calling
 * {@code NameHasher.MURMUR3_128.hash(name)} (UTF-8 encoding + 128-bit MurmurHash3), and the
 * writer's hashing of every source name in {@code GenerationCommit}.
 */
public class NameHashBench extends JmhBase {
  String[] names;
  int next;

  @Setup
  public void setup() {
    names = names(1024);
  }

  @Benchmark
  public NameHash hash() {
    String name = names[next++ & 1023];
    return NameHasher.MURMUR3_128.hash(name);
  }
}
