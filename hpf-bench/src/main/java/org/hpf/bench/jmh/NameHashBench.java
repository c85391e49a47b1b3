package org.hpf.bench.jmh;

import org.hpf.internal.format.NameHash;
import org.hpf.internal.format.NameHasher;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * Hashing a member name: models the first step of every lookup, {@code HpfReader.find} hashing
 * the name with the archive's algorithm (UTF-8 encoding, then SHA-256 for archives of format 2,
 * 128-bit MurmurHash3 for older ones), and the writer's hashing of every source name.
 */
public class NameHashBench extends JmhBase {
  String[] names;
  int next;

  @Setup
  public void setup() {
    names = names(1024);
  }

  @Benchmark
  public NameHash sha256() {
    return NameHasher.SHA256_128.hash(names[next++ & 1023]);
  }

  @Benchmark
  public NameHash murmur3() {
    return NameHasher.MURMUR3_128.hash(names[next++ & 1023]);
  }
}
