package org.hpf.crash;

import static org.hpf.crash.ArchiveFixtures.hadoopPath;
import static org.hpf.crash.ArchiveFixtures.storage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.hpf.MemberAccess;
import org.hpf.crash.LosingStorage.Loss;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.read.ArchiveVerifier;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.Source;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.LocalTrees;
import org.hpf.testing.MemoryTempDirs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills the writer at every mutating storage operation of a create, an append, a delete and a
 * compaction, takes away what the crash would have lost (bytes not flushed for a process crash,
 * bytes not synced for a power loss, each with a torn last write), then recovers and checks:
 * committed files are intact, nothing that was not added appears, an operation whose commit
 * point passed is complete (a delete: every name deleted, none brought back; one whose commit
 * point did not pass deleted nothing), the listing agrees with the reads, verify passes, and the
 * archive takes another append.
 */
abstract class CrashRecoveryBattery {
  /** What the crash takes away besides the writer. */
  abstract Loss loss();

  private static final Configuration CONF = ArchiveFixtures.CONF;

  /** The steps of writing a part: a crash must be able to hit each of them. */
  private static final String[] PART_WRITES = {"create part-#", "write part-#",
      "hsync part-#", "close part-#"};

  @TempDir(factory = MemoryTempDirs.class) Path tmp;
  private final Map<String, byte[]> expected = new HashMap<>();
  /** The owner, group and mode each name's source had, or the writer's default it got. */
  private final Map<String, MemberAccess> accesses = new HashMap<>();

  private WriterOptions options(boolean breakLock) {
    return WriterOptions.builder().settings(s -> s.threads(2).breakLock(breakLock))
        .layout(l -> l.withPartSize(48 * 1024).withBucketCapacity(24)).journalBatch(8, 32 * 1024)
        .build();
  }

  private List<Source> sources(String dir, String prefix, int count, long seed) throws IOException {
    List<Source> sources = ArchiveFixtures.sources(tmp.resolve(dir), prefix, count, seed,
        expected);
    for (Source source : sources) {
      accesses.put(source.name(), ArchiveFixtures.localAccess(tmp.resolve(dir)
          .resolve(source.name())));
    }
    return sources;
  }

  private static boolean committed(HadoopStorage storage, long generation) throws IOException {
    return storage.exists(Manifest.fileName(generation));
  }

  @Test
  void everyKillPointOfACreate() throws Exception {
    Loss loss = loss();
    List<Source> sources = sources("src", "a", 120, 1);
    Operation create = s -> ArchiveCreator.create(s, sources, options(false));
    int total = countOperations(create, null, PART_WRITES);
    int checked = 0;
    for (int k = 1; k <= total; k++) {
      Path dir = tmp.resolve("create-" + loss + "-" + k);
      crash(dir, k, loss, create);
      HadoopStorage real = storage(dir);
      boolean commitPointPassed = committed(real, 1);
      if (!real.rootExists()) {
        continue;
      }
      if (ArchiveWriter.recover(CONF, hadoopPath(dir), options(true)).removedCreate()) {
        // The writer died before its journal held a durable record: nothing was added, and
        // recovery removed what it left, so the create can run again.
        assertFalse(commitPointPassed, "k=" + k + ": a committed create lost its manifest");
        assertFalse(real.rootExists(), "k=" + k + ": the directory after its removal");
        continue;
      }
      Outcome outcome = new Outcome(Map.of(), names(sources), addedIf(commitPointPassed));
      check(dir, k, outcome);
      checked++;
    }
    System.out.println("create (" + loss + "): " + checked + " kill points checked of " + total);
    assertTrue(total > 60 && checked > total * 3 / 4, "too few kill points: " + checked);
  }

  @Test
  void everyKillPointOfAnAppend() throws Exception {
    Loss loss = loss();
    List<Source> base = sources("base", "b", 80, 2);
    Path template = tmp.resolve("template");
    ArchiveCreator.create(storage(template), base, options(false));
    Map<String, byte[]> committedFiles = new HashMap<>(expected);
    List<Source> added = sources("more", "c", 60, 3);
    Operation append = s -> {
      try (ArchiveWriter writer = ArchiveWriter.open(CONF, s, options(false))) {
        writer.appendSources(added, false);
      }
    };
    int total = countOperations(append, template, PART_WRITES);
    for (int k = 1; k <= total; k++) {
      Path dir = tmp.resolve("append-" + loss + "-" + k);
      LocalTrees.copy(template, dir);
      crash(dir, k, loss, append);
      boolean commitPointPassed = committed(storage(dir), 2);
      ArchiveWriter.recover(CONF, hadoopPath(dir), options(true));
      check(dir, k, new Outcome(committedFiles, names(added), addedIf(commitPointPassed)));
    }
    System.out.println("append (" + loss + "): " + total + " kill points checked");
    assertTrue(total > 40, "too few kill points: " + total);
  }

  @Test
  void everyKillPointOfADeleteAndACompaction() throws Exception {
    Loss loss = loss();
    List<Source> base = sources("base", "d", 90, 4);
    Path template = tmp.resolve("template");
    ArchiveCreator.create(storage(template), base, options(false));
    List<String> doomed = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      doomed.add("d/f" + i);
    }
    Map<String, byte[]> survivors = new HashMap<>(expected);
    doomed.forEach(survivors::remove);
    for (boolean compact : new boolean[] {false, true}) {
      Path start = tmp.resolve("start-" + compact);
      LocalTrees.copy(template, start);
      if (compact) {
        try (ArchiveWriter writer = ArchiveWriter.open(CONF, hadoopPath(start), options(false))) {
          writer.delete(doomed);
        }
      }
      long generation = compact ? 3 : 2;
      Operation op = s -> {
        try (ArchiveWriter writer = ArchiveWriter.open(CONF, s, options(false))) {
          if (compact) {
            writer.compact(0.9);
          } else {
            writer.delete(doomed);
          }
        }
      };
      int total = countOperations(op, start, compact ? PART_WRITES : new String[0]);
      for (int k = 1; k <= total; k++) {
        Path dir = tmp.resolve("op-" + loss + "-" + compact + "-" + k);
        LocalTrees.copy(start, dir);
        crash(dir, k, loss, op);
        boolean commitPointPassed = committed(storage(dir), generation);
        ArchiveWriter.recover(CONF, hadoopPath(dir), options(true));
        // A delete writes no journal: before its commit point nothing is deleted, after it
        // everything, and recovery must never bring a deleted name back.
        check(dir, k, compact
            ? new Outcome(survivors, List.of(), Present.ANY)
            : new Outcome(survivors, doomed, commitPointPassed ? Present.NONE : Present.ALL));
      }
      String what = compact ? "compaction" : "delete";
      System.out.println(what + " (" + loss + "): " + total + " kill points checked");
      assertTrue(total > 20, what + ": too few kill points: " + total);
    }
  }

  @Test
  void everyKillPointOfAChangeThatDeletesAndAdds() throws Exception {
    Loss loss = loss();
    List<Source> base = sources("base", "m", 20, 5);
    Path template = tmp.resolve("template");
    ArchiveCreator.create(storage(template), base, options(false));
    List<String> doomed = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      doomed.add("m/f" + i);
    }
    Map<String, byte[]> survivors = new HashMap<>(expected);
    doomed.forEach(survivors::remove);
    List<Source> added = sources("new", "n", 12, 6);
    MemberAccess writerDefault = MemberAccess.defaultFor(CONF);
    added.forEach(source -> accesses.put(source.name(), writerDefault));
    Operation change = s -> {
      try (ArchiveWriter writer = ArchiveWriter.open(CONF, s, options(false))) {
        for (String name : doomed) {
          writer.stageDelete(name);
        }
        for (Source source : added) {
          writer.add(source.name(), expected.get(source.name()), source.mtimeMillis());
        }
        writer.commit();
      }
    };
    int total = countOperations(change, template, PART_WRITES);
    List<String> attempted = new ArrayList<>(doomed);
    attempted.addAll(names(added));
    for (int k = 1; k <= total; k++) {
      Path dir = tmp.resolve("change-" + loss + "-" + k);
      LocalTrees.copy(template, dir);
      crash(dir, k, loss, change);
      boolean commitPointPassed = committed(storage(dir), 2);
      ArchiveWriter.recover(CONF, hadoopPath(dir), options(true));
      try (HpfReader reader = HpfReader.open(CONF, hadoopPath(dir))) {
        long deleted = 0;
        for (String name : doomed) {
          boolean gone = !reader.exists(name);
          // Recovery redoes what was journaled, in order: the deletions form a prefix.
          assertTrue(!gone || deleted == doomed.indexOf(name), "k=" + k + ": " + name
              + " deleted, one staged before it not");
          deleted += gone ? 1 : 0;
        }
        long present = 0;
        for (Source source : added) {
          present += reader.exists(source.name()) ? 1 : 0;
        }
        // The deletions are journaled before any member is merged: no member of the change
        // can be recovered without all of them.
        assertTrue(present == 0 || deleted == doomed.size(), "k=" + k + ": members recovered "
            + "without the change's deletions");
        if (commitPointPassed) {
          assertEquals(doomed.size(), deleted, "k=" + k + ": committed, deletions lost");
          assertEquals(added.size(), present, "k=" + k + ": committed, members lost");
        }
      }
      check(dir, k, new Outcome(survivors, attempted, Present.ANY));
    }
    System.out.println("delete and add (" + loss + "): " + total + " kill points checked");
    assertTrue(total > 20, "too few kill points: " + total);
  }

  /**
   * What a recovered archive may hold: every member of {@code kept}; of {@code attempted}, the
   * names an operation added or deleted, those that {@code present} says.
   */
  private record Outcome(Map<String, byte[]> kept, List<String> attempted, Present present) {}

  /** Which of the names an operation added or deleted a recovered archive holds. */
  private enum Present {
    /** Every one: an add that committed, or a delete that did not. */
    ALL,
    /** None: a delete that committed. */
    NONE,
    /** Any of them: an add that had not committed (recovery rolls a prefix forward). */
    ANY
  }

  /** The names an add attempted: all once its commit point passed, else any. */
  private static Present addedIf(boolean commitPointPassed) {
    return commitPointPassed ? Present.ALL : Present.ANY;
  }

  /** Checks the recovered archive, its listing and verify, then appends to it. */
  private void check(Path dir, int k, Outcome outcome) throws IOException {
    try (HpfReader reader = HpfReader.open(CONF, hadoopPath(dir))) {
      for (Map.Entry<String, byte[]> file : outcome.kept().entrySet()) {
        assertArrayEquals(file.getValue(), reader.get(file.getKey()),
            "k=" + k + ": committed " + file.getKey());
      }
      Set<String> listed;
      try (var names = reader.list()) {
        listed = names.collect(Collectors.toSet());
      }
      assertTrue(listed.containsAll(outcome.kept().keySet()),
          "k=" + k + ": a committed member is missing from the listing");
      long attempted = 0;
      for (String name : outcome.attempted()) {
        boolean member = reader.exists(name);
        assertEquals(member, listed.contains(name), "k=" + k + ": listing and reads disagree on "
            + name);
        attempted += member ? 1 : 0;
      }
      for (String name : listed) {
        assertTrue(outcome.kept().containsKey(name) || outcome.attempted().contains(name),
            "k=" + k + ": " + name + " appeared from nowhere");
        assertArrayEquals(expected.get(name), reader.get(name), "k=" + k + ": " + name);
        assertEquals(accesses.get(name), ArchiveFixtures.recordedAccess(reader, name),
            "k=" + k + ": the access of " + name);
      }
      int all = outcome.attempted().size();
      if (outcome.present() == Present.ALL) {
        assertEquals(all, attempted, "k=" + k + ": the operation committed but files are "
            + "missing (or a delete that did not commit removed some)");
      } else if (outcome.present() == Present.NONE) {
        assertEquals(0, attempted, "k=" + k + ": a committed delete was undone: " + attempted
            + " of " + all + " deleted names are back");
      }
      assertEquals(listed.size(), reader.manifest().fileCount(), "k=" + k);
    }
    verify(dir, k);
    Path extra = tmp.resolve("extra-" + dir.getFileName());
    Files.createDirectories(extra);
    Files.writeString(extra.resolve("after-crash-" + k), "more " + k);
    try (ArchiveWriter writer = ArchiveWriter.open(CONF, hadoopPath(dir), options(false))) {
      writer.append(List.of(hadoopPath(extra)), false);
    }
    try (HpfReader reader = HpfReader.open(CONF, hadoopPath(dir))) {
      assertEquals("more " + k, new String(reader.get("after-crash-" + k)));
    }
  }

  private static void verify(Path dir, int k) throws IOException {
    ArchiveVerifier.Report report = ArchiveVerifier.verify(storage(dir), ReaderOptions.defaults(),
        bytes -> {});
    assertTrue(report.ok(), "k=" + k + ": verify found " + report.problems());
  }

  private static List<String> names(List<Source> sources) {
    return sources.stream().map(Source::name).toList();
  }

  @FunctionalInterface
  private interface Operation {
    void run(ArchiveStorage storage) throws IOException;
  }

  /**
   * Runs the operation on a copy of {@code start} (or a new archive) and counts its steps, which
   * must include {@code mustSee} (kinds as {@link CrashingStorage#kinds} names them).
   */
  private int countOperations(Operation op, Path start, String... mustSee) throws IOException {
    Path dir = tmp.resolve("count");
    LocalTrees.delete(dir);
    if (start != null) {
      LocalTrees.copy(start, dir);
    }
    CrashingStorage counter = new CrashingStorage(storage(dir), 0);
    op.run(counter);
    for (String kind : mustSee) {
      assertTrue(counter.kinds().contains(kind), "no kill point at " + kind
          + ": the writer bypasses the storage (" + counter.kinds() + ")");
    }
    return counter.operations();
  }

  /**
   * Runs the operation until the storage kills it at step {@code k}, then takes away what the
   * crash loses. With two merge threads the number of steps varies a little between runs, so a
   * run may also finish before its kill point; then the archive must simply hold the finished
   * operation, which the checks verify too.
   */
  private static void crash(Path dir, int k, Loss loss, Operation op) throws IOException {
    LosingStorage storage = new LosingStorage(storage(dir), k, loss);
    try {
      op.run(storage);
    } catch (CrashingStorage.Crash expected) {
      // the writer died
    } catch (IOException | RuntimeException e) {
      if (!storage.crashed()) {
        throw new AssertionError("failed before the kill point", e);
      }
      // cleanup code that ran into the dead storage: part of dying
    }
    if (storage.crashed()) {
      storage.loseUndurableBytes(new Random(31L * k + loss.ordinal()));
    }
  }
}
