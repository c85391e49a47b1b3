package org.hpf.crash;

/** What an actor's storage asks before each of its calls: the schedule decides when it goes on. */
@FunctionalInterface
interface CallGate {
  /** Returns when the actor may make {@code call}. */
  void step(String call);
}
