package org.hpf.internal.write;

/**
 * Where the time of the thread that runs a change goes, phase by phase. Every moment between
 * {@link #start} and {@link #stop} belongs to exactly one phase, the one entered last, so the
 * phases add up to the wall time; time the thread spends waiting for the merge threads counts to
 * the phase it waits in. Read with {@link System#nanoTime}, which is monotonic. Used by that one
 * thread only.
 */
public final class PhaseClock {
  private final long started;
  private final long[] nanos = new long[Phase.values().length];
  private Phase current = Phase.OTHER;
  private long since;
  private long stopped = -1;

  private PhaseClock() {
    started = System.nanoTime();
    since = started;
  }

  /** A clock running from now, in {@link Phase#OTHER} until a phase is entered. */
  public static PhaseClock start() {
    return new PhaseClock();
  }

  /** Enters {@code phase}; returns the phase left. */
  public Phase enter(Phase phase) {
    long now = System.nanoTime();
    nanos[current.ordinal()] += now - since;
    since = now;
    Phase left = current;
    current = phase;
    return left;
  }

  /** Enters {@code phase} until the section is closed, then goes back to the phase before. */
  public Section in(Phase phase) {
    return new Section(this, enter(phase));
  }

  /** Stops the clock (once; later calls return the same times). */
  public PhaseTimes stop() {
    if (stopped < 0) {
      enter(Phase.OTHER);
      stopped = since;
    }
    return new PhaseTimes(nanos.clone(), stopped - started);
  }

  /** A phase entered for a block: {@code try (var s = clock.in(Phase.INDEX)) { ... }}. */
  public static final class Section implements AutoCloseable {
    private final PhaseClock clock;
    private final Phase before;

    private Section(PhaseClock clock, Phase before) {
      this.clock = clock;
      this.before = before;
    }

    @Override
    public void close() {
      clock.enter(before);
    }
  }
}
