package org.hpf.crash;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Where one actor of a schedule stands: it counts the actor's storage calls and, at the chosen
 * one, holds the actor (every thread of it, at its next call) before that call happens, until
 * the schedule lets it go on. The same schedule replays exactly: an actor's calls come in the
 * same order each time it runs alone from the same archive.
 */
final class Stepper implements CallGate {
  /** How long a held actor waits before the schedule is declared stuck. */
  private static final long HOLD_SECONDS = 120;

  private final int holdAt;
  private final List<String> trace = new ArrayList<>();
  private final CountDownLatch reached = new CountDownLatch(1);
  private final CountDownLatch released = new CountDownLatch(1);
  private boolean holding;
  private String heldAt;

  /** @param holdAt the 1-based call before which the actor is held; 0 never holds */
  Stepper(int holdAt) {
    this.holdAt = holdAt;
  }

  /** A stepper that only counts. */
  static Stepper counting() {
    return new Stepper(0);
  }

  /** Called before every storage call of the actor. */
  @Override
  public void step(String call) {
    boolean hold;
    synchronized (this) {
      trace.add(call);
      if (trace.size() == holdAt) {
        holding = true;
        heldAt = call;
        reached.countDown();
      }
      hold = holding;
    }
    if (hold) {
      try {
        if (!released.await(HOLD_SECONDS, TimeUnit.SECONDS)) {
          throw new AssertionError("held at " + heldAt + " and never released");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while held at " + heldAt, e);
      }
    }
  }

  /**
   * Waits until the actor is held, or has ended without reaching the call (its calls ran out):
   * true when held.
   */
  boolean awaitHeld(Future<?> actor) throws InterruptedException {
    while (!actor.isDone()) {
      if (reached.await(10, TimeUnit.MILLISECONDS)) {
        return true;
      }
    }
    return reached.getCount() == 0;
  }

  /** Lets the held actor go on. */
  synchronized void release() {
    holding = false;
    released.countDown();
  }

  synchronized int steps() {
    return trace.size();
  }

  synchronized List<String> trace() {
    return List.copyOf(trace);
  }

  synchronized String heldAt() {
    return heldAt;
  }
}
