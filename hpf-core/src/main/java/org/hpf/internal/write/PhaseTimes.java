package org.hpf.internal.write;

import java.util.LinkedHashMap;
import java.util.Map;

/** The time each {@link Phase} of a change took, and the wall time they add up to. */
public final class PhaseTimes {
  private final long[] nanos;
  private final long wallNanos;

  PhaseTimes(long[] nanos, long wallNanos) {
    this.nanos = nanos;
    this.wallNanos = wallNanos;
  }

  /** None measured: every phase and the wall time zero. */
  public static PhaseTimes none() {
    return new PhaseTimes(new long[Phase.values().length], 0);
  }

  public long nanos(Phase phase) {
    return nanos[phase.ordinal()];
  }

  public long millis(Phase phase) {
    return nanos(phase) / 1_000_000;
  }

  public long wallNanos() {
    return wallNanos;
  }

  /** The phases' sum; equal to {@link #wallNanos()} for a clock that was stopped. */
  public long sumNanos() {
    long sum = 0;
    for (long n : nanos) {
      sum += n;
    }
    return sum;
  }

  /** Milliseconds (to the microsecond) of every phase by its {@link Phase#key()}, in order. */
  public Map<String, Double> millisByKey() {
    Map<String, Double> millis = new LinkedHashMap<>();
    for (Phase phase : Phase.values()) {
      millis.put(phase.key(), nanos(phase) / 1000 / 1e3);
    }
    return millis;
  }
}
