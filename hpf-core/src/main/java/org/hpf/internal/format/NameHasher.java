package org.hpf.internal.format;

import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;
import java.nio.charset.StandardCharsets;

/**
 * Maps names to {@link NameHash}. The manifest names the archive's algorithm: {@link #SHA256_128}
 * (algorithm 2) for archives created by format 2, {@link #MURMUR3_128} (algorithm 1) for older
 * ones. The interface exists so tests can force collisions on 32, 64 or 128 bits; a hasher of
 * their own counts as algorithm 1 and as one whose collisions can be made.
 */
@FunctionalInterface
public interface NameHasher {
  int MURMUR3_128_ID = 1;
  int SHA256_128_ID = 2;

  /** MurmurHash3 x64 128-bit, seed 0: fast, but names that collide on it can be made. */
  NameHasher MURMUR3_128 = new NameHasher() {
    private final HashFunction murmur = Hashing.murmur3_128(0);

    @Override
    public NameHash hash(String name) {
      return NameHash.of(murmur.hashBytes(name.getBytes(StandardCharsets.UTF_8)).asBytes(), 0);
    }
  };

  /**
   * The first 16 bytes of SHA-256: two names with one hash cannot be made on purpose, so the
   * index alone can say whether a name is a member.
   */
  NameHasher SHA256_128 = new NameHasher() {
    @Override
    public NameHash hash(String name) {
      return NameHash.of(Hashing.sha256().hashBytes(name.getBytes(StandardCharsets.UTF_8))
          .asBytes(), 0);
    }

    @Override
    public int algorithm() {
      return SHA256_128_ID;
    }

    @Override
    public boolean collisionResistant() {
      return true;
    }
  };

  /** The hasher new archives use. */
  NameHasher DEFAULT = SHA256_128;

  NameHash hash(String name);

  /** The manifest's HashAlgorithm code of this hasher. */
  default int algorithm() {
    return MURMUR3_128_ID;
  }

  /**
   * True if names with equal hashes cannot be found on purpose: then a record whose hash equals
   * a name's is that name's, and no entry needs to be read to be sure.
   */
  default boolean collisionResistant() {
    return false;
  }

  /** True for the algorithm codes a manifest may carry. */
  static boolean isKnown(int algorithm) {
    return algorithm == MURMUR3_128_ID || algorithm == SHA256_128_ID;
  }

  /** The hasher of a manifest's HashAlgorithm code. */
  static NameHasher forAlgorithm(int algorithm) {
    return switch (algorithm) {
      case MURMUR3_128_ID -> MURMUR3_128;
      case SHA256_128_ID -> SHA256_128;
      default -> throw new IllegalArgumentException("unknown hash algorithm " + algorithm);
    };
  }
}
