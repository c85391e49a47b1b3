package org.hpf.testing;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

/**
 * The seeds of a randomized test: a fixed list, so that what failed once is tried on every run,
 * plus one new random seed per run, so that the search goes on. {@code -D<property>=S} runs seed
 * S alone. Every failure message quotes its seed and the property that replays it.
 */
public final class ReplaySeeds {
  private final String property;
  private final List<Long> seeds;

  private ReplaySeeds(String property, List<Long> seeds) {
    this.property = property;
    this.seeds = List.copyOf(seeds);
  }

  /** The fixed seeds plus one random one, or only the seed the system property gives. */
  public static ReplaySeeds of(String property, long... fixed) {
    Long replay = Long.getLong(property);
    List<Long> seeds = new ArrayList<>();
    if (replay != null) {
      seeds.add(replay);
    } else {
      for (long seed : fixed) {
        seeds.add(seed);
      }
      seeds.add(new SecureRandom().nextLong());
    }
    System.out.println(property + ": seeds " + seeds);
    return new ReplaySeeds(property, seeds);
  }

  public List<Long> seeds() {
    return seeds;
  }

  /** {@code total} runs shared among the seeds, each getting at least one. */
  public int share(int total) {
    return Math.max(1, total / seeds.size());
  }

  /** The words a failure message gives to replay {@code seed}. */
  public String replay(long seed) {
    return "seed " + seed + ", replay with -D" + property + "=" + seed;
  }
}
