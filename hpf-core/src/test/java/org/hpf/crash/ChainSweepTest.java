package org.hpf.crash;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hpf.crash.ScheduleExplorer.Actor;
import org.hpf.testing.MemoryTempDirs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Chains of turns among three actors on one archive ({@link ChainExplorer}), drawn from fixed
 * seeds so that every run explores the same orders, on the local file system and under an object
 * store's commit rules on local disk. The fast tier runs a seventh of them.
 */
class ChainSweepTest {
  /** Chains per actor set and storage: every seed from 1 (the fast tier: a seventh). */
  private static final int CHAINS = Integer.getInteger("hpf.chains",
      Math.max(2, 12 / ScheduleExplorer.STRIDE));

  /**
   * Chains a slower storage (HDFS, the S3 server) runs of {@link #twoWritersAndAReader}: a
   * sample in CI, more by {@code -Dhpf.chains.sampled=N}.
   */
  static final int SAMPLED_CHAINS = Integer.getInteger("hpf.chains.sampled", 2);

  @TempDir(factory = MemoryTempDirs.class) Path tmp;

  private void explore(boolean objectStoreRules, List<Actor> actors) throws Exception {
    ChainExplorer explorer = new ChainExplorer(objectStoreRules
        ? ScheduleExplorer.conditionalLocalDisk(tmp) : ScheduleExplorer.localDisk(tmp));
    explorer.explore(actors, 1, CHAINS);
    System.out.println(actors.stream().map(Actor::name).toList() + (objectStoreRules
        ? ", object store rules" : ", local disk") + ": " + explorer.chains() + " chains");
    explorer.assertNoFailures();
  }

  /** Everything any actor below may have written under each name, the base's included. */
  private static Map<String, byte[]> known(Actor... actors) {
    Map<String, byte[]> known = new LinkedHashMap<>(ScheduleExplorer.BASE);
    for (Actor actor : actors) {
      known.putAll(actor.adds());
    }
    return known;
  }

  /** Runs one chain on local disk, as the sweep found it failing and shrank it; it must pass. */
  private void replay(List<Actor> actors, ChainExplorer.Segment... chain) throws Exception {
    replay(ScheduleExplorer.localDisk(tmp), actors, chain);
  }

  static void replay(ScheduleExplorer.Place place, List<Actor> actors,
      ChainExplorer.Segment... chain) throws Exception {
    List<String> failures = new ChainExplorer(place).run(actors, List.of(chain));
    if (!failures.isEmpty()) {
      throw new AssertionError(String.join("\n", failures));
    }
  }

  static ChainExplorer.Segment turn(int actor, int calls) {
    return new ChainExplorer.Segment(actor, calls);
  }

  /**
   * A stops after picking the id of its next part and before creating it (22 calls); B breaks
   * its lock and stops after picking the same id (37 calls); A creates that part, and the
   * index and names files of the generation both build. B must take other names, not fail.
   */
  @Test
  void aWriterWhoseLockWasBrokenLeavesTheNewHolderFreeNames() throws Exception {
    replay(List.of(ScheduleExplorer.append("a", false), ScheduleExplorer.append("b", true)),
        turn(0, 22), turn(1, 37));
  }

  /**
   * A reader lists the manifests (1 call), then two writers commit two generations and
   * retention removes the one it listed: it must read the newest, not fail.
   */
  @Test
  void aReaderWhoseListedManifestWasRetiredReadsTheNewest() throws Exception {
    Actor a = ScheduleExplorer.append("a", false);
    Actor b = ScheduleExplorer.append("b", true);
    replay(List.of(a, b, ScheduleExplorer.reader(known(a, b))), turn(2, 1));
  }

  /**
   * A recovery removes a create that never committed and releases the lock (34 calls); a create
   * then commits before the recovery removes the empty directories the removal left: the
   * recovery must leave the directory that is no longer empty, and say what it did.
   */
  @Test
  void aRecoveryLeavesTheDirectoryACreateFilledMeanwhile() throws Exception {
    replay(List.of(ScheduleExplorer.create("a"), ScheduleExplorer.create("b"),
        ScheduleExplorer.recover(true)), turn(2, 34));
  }

  /**
   * Object store rules: A takes its lock (5 calls); B breaks it and stops while its recovery
   * collects, having listed the manifests (15 calls); A commits generation 3 and its retention
   * removes generation 1's manifest, which B listed: B must list again, not fail on it.
   */
  @Test
  void aCollectionWhoseListedManifestAnotherWriterRetiredListsAgain() throws Exception {
    replay(ScheduleExplorer.conditionalLocalDisk(tmp), List.of(
        ScheduleExplorer.append("a", false), ScheduleExplorer.append("b", true)),
        turn(0, 5), turn(1, 15));
  }

  /**
   * Object store rules: A takes its free lock and stops (5 to 7 calls) before its recovery; B
   * breaks the lock and stops with an upload open (its republished manifest or its part), or
   * having written its index and names files; A goes on and fails as lock lost. B must commit:
   * A neither aborts B's uploads (a writer aborts pending uploads only where it broke a lock,
   * after confirming its own) nor takes the names B picked (B's recovery raises the part id
   * floor above all A may still add).
   */
  @ParameterizedTest(name = "chain [#0 x{0}, #1 x{1}]")
  @CsvSource({"5, 25", "7, 19", "7, 37", "6, 41", "6, 48", "5, 55", "6, 55"})
  void aWriterFencedOffOnAnObjectStoreLeavesTheNewHolderAlone(int a, int b) throws Exception {
    replay(ScheduleExplorer.conditionalLocalDisk(tmp), List.of(
        ScheduleExplorer.append("a", false), ScheduleExplorer.append("b", true)),
        turn(0, a), turn(1, b));
  }

  @ParameterizedTest(name = "object store rules: {0}")
  @ValueSource(booleans = {false, true})
  void anAppendAnotherThatBreaksItsLockAndARecovery(boolean objectStoreRules)
      throws Exception {
    explore(objectStoreRules, List.of(ScheduleExplorer.append("a", false),
        ScheduleExplorer.append("b", true), ScheduleExplorer.recover(true)));
  }

  @ParameterizedTest(name = "object store rules: {0}")
  @ValueSource(booleans = {false, true})
  void anAppendAnotherThatBreaksItsLockAndAReader(boolean objectStoreRules) throws Exception {
    explore(objectStoreRules, twoWritersAndAReader());
  }

  /** An append, another that breaks its lock, and a reader of all they may write. */
  static List<Actor> twoWritersAndAReader() {
    Actor a = ScheduleExplorer.append("a", false);
    Actor b = ScheduleExplorer.append("b", true);
    return List.of(a, b, ScheduleExplorer.reader(known(a, b)));
  }

  /**
   * The first {@code seeds} chains of {@link #twoWritersAndAReader} in {@code place} (a storage
   * slower than local disk), which must all pass.
   */
  static void sample(ScheduleExplorer.Place place, int seeds) throws Exception {
    ChainExplorer chains = new ChainExplorer(place);
    chains.explore(twoWritersAndAReader(), 1, seeds);
    System.out.println("append, append (break-lock), reader, " + place.name() + ": "
        + chains.chains() + " chains");
    chains.assertNoFailures();
  }

  /**
   * Local disk (takeovers of a live holder happen where a lease expires, see {@link
   * ExpiredLeaseView}): an append, another that takes its lock over, and a reader.
   */
  @Test
  void anAppendAnotherThatTakesItsLockOverAndAReader() throws Exception {
    Actor a = ScheduleExplorer.append("a", false);
    Actor b = ScheduleExplorer.takingOver(ScheduleExplorer.append("b", false));
    exploreTakingOver(List.of(a, b, ScheduleExplorer.reader(known(a, b))));
  }

  /** As {@link #explore} on local disk, where some chains must take a lock over. */
  private void exploreTakingOver(List<Actor> actors) throws Exception {
    int before = ExpiredLeaseView.takeoversBegun();
    explore(false, actors);
    org.junit.jupiter.api.Assertions.assertTrue(ExpiredLeaseView.takeoversBegun() > before,
        "no chain took a lock over");
  }

  /** Local disk: an append, and two others that each take over whatever lock they find. */
  @Test
  void anAppendAndTwoThatTakeTheLockOver() throws Exception {
    exploreTakingOver(List.of(ScheduleExplorer.append("a", false),
        ScheduleExplorer.takingOver(ScheduleExplorer.append("b", false)),
        ScheduleExplorer.takingOver(ScheduleExplorer.append("c", false))));
  }

  @ParameterizedTest(name = "object store rules: {0}")
  @ValueSource(booleans = {false, true})
  void aDeleteACompactionThatBreaksItsLockAndAnAppend(boolean objectStoreRules)
      throws Exception {
    explore(objectStoreRules, List.of(
        ScheduleExplorer.delete(List.of("base/m2", "base/m3"), false),
        ScheduleExplorer.compact(true), ScheduleExplorer.append("c", false)));
  }

  @ParameterizedTest(name = "object store rules: {0}")
  @ValueSource(booleans = {false, true})
  void twoCreatesOfOnePathAndARecovery(boolean objectStoreRules) throws Exception {
    explore(objectStoreRules, List.of(ScheduleExplorer.create("a"),
        ScheduleExplorer.create("b"), ScheduleExplorer.recover(true)));
  }
}
