package org.hpf.format;

import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;
import java.nio.charset.StandardCharsets;

/**
 * Maps names to {@link NameHash}. The archive format fixes {@link #MURMUR3_128} (hash algorithm
 * 1); the interface exists so tests can force collisions on 32, 64 or 128 bits.
 */
@FunctionalInterface
public interface NameHasher {
  int MURMUR3_128_ID = 1;

  NameHasher MURMUR3_128 = new NameHasher() {
    private final HashFunction murmur = Hashing.murmur3_128(0);

    @Override
    public NameHash hash(String name) {
      return NameHash.of(murmur.hashBytes(name.getBytes(StandardCharsets.UTF_8)).asBytes(), 0);
    }
  };

  NameHash hash(String name);
}
