package org.hpf.crash;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.Path;
import org.hpf.crash.ScheduleExplorer.Actor;
import org.hpf.crash.ScheduleExplorer.Ended;
import org.hpf.crash.ScheduleExplorer.Place;
import org.hpf.internal.io.ArchiveStorage;

/**
 * Longer schedules than a pair sweep's, for two or more actors on one archive: a chain of
 * segments, each letting one actor make a number of storage calls while the others wait, drawn
 * from a seed. Every actor is stopped before each of its calls and goes on only when the chain
 * gives it the turn, once every other actor is stopped too (or has ended), so a chain replays
 * exactly. When the segments run out, the actors still running go on one after the other, in
 * their order. A chain that fails the {@link ScheduleExplorer}'s oracles is shrunk (segments
 * dropped, then shortened, as long as it still fails) and reported with its seed, so the
 * smallest failing order is what a reader sees.
 */
final class ChainExplorer {
  /** One actor's turn: up to {@code calls} storage calls. */
  record Segment(int actor, int calls) {
    @Override
    public String toString() {
      return "#" + actor + " x" + calls;
    }
  }

  /** How long the chain waits for every actor to stop before it calls the schedule stuck. */
  private static final long SETTLE_SECONDS = 120;
  /** Runs a shrink may spend on one failing chain. */
  private static final int SHRINK_RUNS = 40;

  private final Place place;
  private final List<String> failures = new ArrayList<>();
  private int chains;

  ChainExplorer(Place place) {
    this.place = place;
  }

  /** The chain of {@code seed} for {@code actors} actors. */
  static List<Segment> chain(long seed, int actors) {
    Random random = new Random(seed);
    List<Segment> segments = new ArrayList<>();
    int count = 2 + random.nextInt(7);
    for (int i = 0; i < count; i++) {
      // Mostly short turns, which interleave calls finely, and now and then a long one.
      int calls = random.nextInt(4) == 0 ? 1 + random.nextInt(60) : 1 + random.nextInt(4);
      segments.add(new Segment(random.nextInt(actors), calls));
    }
    return segments;
  }

  /**
   * Runs the chains of seeds {@code firstSeed} to {@code firstSeed + count - 1}; each failing one
   * is shrunk and recorded. Returns the number of chains run (shrinking runs not counted).
   */
  int explore(List<Actor> actors, long firstSeed, int count) throws Exception {
    for (long seed = firstSeed; seed < firstSeed + count; seed++) {
      List<Segment> chain = chain(seed, actors.size());
      chains++;
      List<String> found = run(actors, chain);
      if (!found.isEmpty()) {
        List<Segment> smallest = shrink(actors, chain);
        List<String> again = run(actors, smallest);
        failures.add("seed " + seed + ", chain " + chain + ", shrunk to " + smallest + " over "
            + names(actors) + ":\n  " + String.join("\n  ", again.isEmpty() ? found : again));
      }
    }
    return count;
  }

  /** Drops, then halves, segments for as long as the chain still fails. */
  private List<Segment> shrink(List<Actor> actors, List<Segment> failing) throws Exception {
    List<Segment> chain = new ArrayList<>(failing);
    int runs = 0;
    boolean smaller = true;
    while (smaller && runs < SHRINK_RUNS) {
      smaller = false;
      for (int i = 0; i < chain.size() && runs < SHRINK_RUNS; i++) {
        List<Segment> without = new ArrayList<>(chain);
        without.remove(i);
        runs++;
        if (!run(actors, without).isEmpty()) {
          chain = without;
          smaller = true;
          i--;
        }
      }
      for (int i = 0; i < chain.size() && runs < SHRINK_RUNS; i++) {
        Segment segment = chain.get(i);
        if (segment.calls() == 1) {
          continue;
        }
        List<Segment> shorter = new ArrayList<>(chain);
        shorter.set(i, new Segment(segment.actor(), segment.calls() / 2));
        runs++;
        if (!run(actors, shorter).isEmpty()) {
          chain = shorter;
          smaller = true;
        }
      }
    }
    return chain;
  }

  /** Runs one chain on a fresh archive; returns what the oracles found. */
  List<String> run(List<Actor> actors, List<Segment> chain) throws Exception {
    ScheduleExplorer oracles = new ScheduleExplorer(place);
    boolean based = actors.get(0).onBase();
    String label = "chain-" + chain;
    Path archive = based ? oracles.base(label) : place.newArchive(label);
    ArchiveStorage raw = place.storage(archive);
    KeptFiles kept = new KeptFiles(raw);
    Turns turns = new Turns(actors.size());
    ExecutorService threads = Executors.newFixedThreadPool(actors.size());
    String schedule = place.name() + ": chain " + chain + " over " + names(actors);
    try {
      List<Future<Ended>> running = new ArrayList<>();
      for (int i = 0; i < actors.size(); i++) {
        Actor actor = actors.get(i);
        ArchiveStorage storage = new SteppedStorage(place.storage(archive), turns.gate(i), kept);
        running.add(threads.submit(() -> {
          try {
            return oracles.end(actor, storage);
          } finally {
            turns.changed();
          }
        }));
      }
      String stuck = turns.play(chain, running);
      if (stuck != null) {
        turns.abandon();
        return List.of(schedule + ": " + stuck);
      }
      Map<Actor, Ended> ended = new LinkedHashMap<>();
      for (int i = 0; i < actors.size(); i++) {
        ended.put(actors.get(i), running.get(i).get(1, TimeUnit.MINUTES));
      }
      oracles.check(schedule + " (calls " + turns.traces() + ")", archive, raw, kept, ended,
          based);
      return oracles.failures();
    } finally {
      threads.shutdownNow();
      place.scheduleEnded();
    }
  }

  private static String names(List<Actor> actors) {
    List<String> named = new ArrayList<>();
    for (int i = 0; i < actors.size(); i++) {
      named.add("#" + i + " " + actors.get(i).name());
    }
    return named.toString();
  }

  /**
   * Whose turn it is. An actor's threads stop before each storage call until their actor has a
   * turn to spend; the chain gives one only when every running actor is stopped, so what the
   * actors do between calls cannot change the order.
   */
  private static final class Turns {
    private final int[] waiting;
    private final int[] granted;
    private final List<List<String>> traces = new ArrayList<>();
    private boolean abandoned;

    Turns(int actors) {
      waiting = new int[actors];
      granted = new int[actors];
      for (int i = 0; i < actors; i++) {
        traces.add(new ArrayList<>());
      }
    }

    CallGate gate(int actor) {
      return call -> {
        synchronized (this) {
          waiting[actor]++;
          notifyAll();
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SETTLE_SECONDS);
          while (granted[actor] == 0 && !abandoned) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
              throw new AssertionError("never given a turn for " + call);
            }
            try {
              TimeUnit.NANOSECONDS.timedWait(this, left);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new AssertionError("interrupted waiting for a turn for " + call, e);
            }
          }
          waiting[actor]--;
          if (granted[actor] > 0) {
            granted[actor]--;
          }
          traces.get(actor).add(call);
        }
      };
    }

    synchronized void changed() {
      notifyAll();
    }

    /** Lets every stopped actor go on, unchecked: the chain is stuck and is given up. */
    synchronized void abandon() {
      abandoned = true;
      notifyAll();
    }

    /** Plays the chain, then the actors still running one after the other; null or why stuck. */
    String play(List<Segment> chain, List<Future<Ended>> running) throws InterruptedException {
      List<Segment> all = new ArrayList<>(chain);
      for (int i = 0; i < running.size(); i++) {
        all.add(new Segment(i, Integer.MAX_VALUE));
      }
      for (Segment segment : all) {
        for (int call = 0; call < segment.calls(); call++) {
          String stuck = settle(running);
          if (stuck != null) {
            return stuck;
          }
          if (running.get(segment.actor()).isDone()) {
            break;
          }
          synchronized (this) {
            granted[segment.actor()]++;
            notifyAll();
          }
        }
      }
      return settle(running);
    }

    /** Waits until every actor has ended or is stopped with no turn left to spend. */
    private synchronized String settle(List<Future<Ended>> running)
        throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SETTLE_SECONDS);
      while (true) {
        List<Integer> moving = new ArrayList<>();
        for (int i = 0; i < running.size(); i++) {
          if (!running.get(i).isDone() && (waiting[i] == 0 || granted[i] > 0)) {
            moving.add(i);
          }
        }
        if (moving.isEmpty()) {
          return null;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return "actors " + moving + " neither stopped at a storage call nor ended in "
              + SETTLE_SECONDS + " s";
        }
        // Ends are noticed through changed(); the short wait also covers a missed one.
        TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(20)));
      }
    }

    synchronized String traces() {
      // How many calls each actor made, and its last two: where a failure usually lies.
      return traces.stream().map(t -> t.size() + (t.isEmpty() ? "" : " ending "
          + t.subList(Math.max(0, t.size() - 2), t.size()))).collect(Collectors.joining(", "));
    }
  }

  int chains() {
    return chains;
  }

  /** Fails with every failing chain, each with its seed and its shrunk form. */
  void assertNoFailures() {
    if (!failures.isEmpty()) {
      throw new AssertionError(failures.size() + " failing chains of " + chains + ":\n"
          + failures.stream().limit(10).collect(Collectors.joining("\n")));
    }
  }

}
