package org.hpf.battery;

import java.util.HashMap;
import java.util.Map;
import org.hpf.internal.format.NameHash;
import org.hpf.internal.format.NameHasher;

/**
 * MurmurHash3 except for names given a chosen hash: the test hook to force collisions on 32, 64
 * or 128 bits. Immutable once built, so merge threads may share it.
 */
final class ForcedHasher implements NameHasher {
  private final Map<String, NameHash> forced;

  private ForcedHasher(Map<String, NameHash> forced) {
    this.forced = Map.copyOf(forced);
  }

  @Override
  public NameHash hash(String name) {
    NameHash hash = forced.get(name);
    return hash != null ? hash : MURMUR3_128.hash(name);
  }

  static Builder builder() {
    return new Builder();
  }

  static final class Builder {
    private final Map<String, NameHash> forced = new HashMap<>();

    Builder force(String name, NameHash hash) {
      forced.put(name, hash);
      return this;
    }

    /** {@code name} gets exactly the MurmurHash3 hash of {@code other}: a 128-bit collision. */
    Builder sameAs(String name, String other) {
      return force(name, MURMUR3_128.hash(other));
    }

    ForcedHasher build() {
      return new ForcedHasher(forced);
    }
  }
}
