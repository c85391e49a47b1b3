package org.hpf.crash;

import static org.hpf.crash.ArchiveFixtures.hadoopPath;
import static org.hpf.crash.ArchiveFixtures.storage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.hpf.NoCommittedGenerationException;
import org.hpf.format.Manifest;
import org.hpf.io.ArchiveStorage;
import org.hpf.io.HadoopStorage;
import org.hpf.read.ArchiveVerifier;
import org.hpf.read.HpfReader;
import org.hpf.testing.LocalTrees;
import org.hpf.read.ReaderOptions;
import org.hpf.write.ArchiveCreator;
import org.hpf.write.ArchiveWriter;
import org.hpf.write.Source;
import org.hpf.write.WriterOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills the writer at every mutating storage operation of a create, an append, a delete and a
 * compaction, then recovers and checks: committed files are intact, nothing that was not added
 * appears, an operation whose commit point passed is complete, verify passes, and the archive
 * takes another append.
 */
class CrashRecoveryTest {
  private static final Configuration CONF = ArchiveFixtures.CONF;

  @TempDir Path tmp;
  private final Map<String, byte[]> expected = new HashMap<>();
  private int killPoints;

  private WriterOptions options(boolean breakLock) {
    return WriterOptions.builder().threads(2).partSize(48 * 1024).bucketCapacity(24)
        .journalBatch(8, 32 * 1024).breakLock(breakLock).build();
  }

  private List<Source> sources(String dir, String prefix, int count, long seed) throws IOException {
    return ArchiveFixtures.sources(tmp.resolve(dir), prefix, count, seed, expected);
  }

  private static boolean committed(HadoopStorage storage, long generation) throws IOException {
    return storage.exists(Manifest.fileName(generation));
  }

  @Test
  void everyKillPointOfACreate() throws Exception {
    List<Source> sources = sources("src", "a", 120, 1);
    int total = countOperations(dir -> ArchiveCreator.create(dir, sources, options(false)));
    for (int k = 1; k <= total; k++) {
      Path dir = tmp.resolve("create-" + k);
      crash(new CrashingStorage(storage(dir), k),
          s -> ArchiveCreator.create(s, sources, options(false)));
      HadoopStorage real = storage(dir);
      boolean commitPointPassed = committed(real, 1);
      if (!real.rootExists()) {
        continue;
      }
      try {
        ArchiveWriter.recover(CONF, hadoopPath(dir), options(true));
      } catch (NoCommittedGenerationException e) {
        // The writer died before its journal held a record: nothing was added.
        assertTrue(!commitPointPassed, "k=" + k + ": a committed create lost its manifest");
        continue;
      }
      check(dir, k, Map.of(), sourcesNames(sources), commitPointPassed);
    }
    System.out.println("create: " + killPoints + " kill points checked of " + total);
    assertTrue(killPoints > 20, "too few kill points: " + killPoints);
  }

  @Test
  void everyKillPointOfAnAppend() throws Exception {
    List<Source> base = sources("base", "b", 80, 2);
    Path template = tmp.resolve("template");
    ArchiveCreator.create(storage(template), base, options(false));
    Map<String, byte[]> committedFiles = new HashMap<>(expected);
    List<Source> added = sources("more", "c", 60, 3);
    int total = countOperations(dir -> {
      LocalTrees.copy(template, tmp.resolve("count"));
      try (ArchiveWriter writer = ArchiveWriter.open(CONF, dir, options(false))) {
        writer.appendSources(added, false);
      }
    });
    for (int k = 1; k <= total; k++) {
      Path dir = tmp.resolve("append-" + k);
      LocalTrees.copy(template, dir);
      crash(new CrashingStorage(storage(dir), k), s -> {
        try (ArchiveWriter writer = ArchiveWriter.open(CONF, s, options(false))) {
          writer.appendSources(added, false);
        }
      });
      boolean commitPointPassed = committed(storage(dir), 2);
      ArchiveWriter.recover(CONF, hadoopPath(dir), options(true));
      check(dir, k, committedFiles, sourcesNames(added), commitPointPassed);
    }
    System.out.println("append: " + killPoints + " kill points checked of " + total);
  }

  @Test
  void everyKillPointOfADeleteAndACompaction() throws Exception {
    List<Source> base = sources("base", "d", 90, 4);
    Path template = tmp.resolve("template");
    ArchiveCreator.create(storage(template), base, options(false));
    List<String> doomed = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      doomed.add("d/f" + i);
    }
    for (boolean compact : new boolean[] {false, true}) {
      Path start = tmp.resolve("start-" + compact);
      LocalTrees.copy(template, start);
      if (compact) {
        try (ArchiveWriter writer = ArchiveWriter.open(CONF, hadoopPath(start), options(false))) {
          writer.delete(doomed);
        }
      }
      Operation op = s -> {
        try (ArchiveWriter writer = ArchiveWriter.open(CONF, s, options(false))) {
          if (compact) {
            writer.compact(0.9);
          } else {
            writer.delete(doomed);
          }
        }
      };
      int total = countOperations(dir -> {
        LocalTrees.copy(start, tmp.resolve("count"));
        op.run(dir);
      });
      for (int k = 1; k <= total; k++) {
        Path dir = tmp.resolve("op-" + compact + "-" + k);
        LocalTrees.copy(start, dir);
        crash(new CrashingStorage(storage(dir), k), op);
        ArchiveWriter.recover(CONF, hadoopPath(dir), options(true));
        try (HpfReader reader = HpfReader.open(CONF, hadoopPath(dir))) {
          long present = doomed.stream().filter(n -> exists(reader, n)).count();
          assertTrue(present == 0 || present == doomed.size() && !compact,
              "k=" + k + ": a delete was applied partly: " + present);
          for (int i = 60; i < 90; i++) {
            String name = "d/f" + i;
            assertArrayEquals(expected.get(name), reader.get(name), "k=" + k + " " + name);
          }
        }
        verify(dir, k);
        killPoints++;
      }
    }
  }

  private static boolean exists(HpfReader reader, String name) {
    try {
      return reader.exists(name);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** Checks the recovered archive, then appends to it. */
  private void check(Path dir, int k, Map<String, byte[]> committedFiles, List<String> attempted,
      boolean attemptCommitted) throws IOException {
    try (HpfReader reader = HpfReader.open(CONF, hadoopPath(dir))) {
      for (Map.Entry<String, byte[]> file : committedFiles.entrySet()) {
        assertArrayEquals(file.getValue(), reader.get(file.getKey()),
            "k=" + k + ": committed " + file.getKey());
      }
      List<String> listed;
      try (var names = reader.list()) {
        listed = names.toList();
      }
      for (String name : listed) {
        assertTrue(committedFiles.containsKey(name) || attempted.contains(name),
            "k=" + k + ": " + name + " appeared from nowhere");
        assertArrayEquals(expected.get(name), reader.get(name), "k=" + k + ": " + name);
      }
      if (attemptCommitted) {
        assertEquals(committedFiles.size() + attempted.size(), listed.size(),
            "k=" + k + ": the operation committed but files are missing");
      }
      assertEquals(listed.size(), reader.manifest().fileCount(), "k=" + k);
    }
    verify(dir, k);
    Path extra = tmp.resolve("extra-" + k);
    Files.createDirectories(extra);
    Files.writeString(extra.resolve("after-crash-" + k), "more " + k);
    try (ArchiveWriter writer = ArchiveWriter.open(CONF, hadoopPath(dir), options(false))) {
      writer.append(List.of(hadoopPath(extra)), false);
    }
    try (HpfReader reader = HpfReader.open(CONF, hadoopPath(dir))) {
      assertEquals("more " + k, new String(reader.get("after-crash-" + k)));
    }
    killPoints++;
  }

  private static void verify(Path dir, int k) throws IOException {
    ArchiveVerifier.Report report = ArchiveVerifier.verify(storage(dir), ReaderOptions.defaults(),
        bytes -> {});
    assertTrue(report.ok(), "k=" + k + ": verify found " + report.problems());
  }

  private static List<String> sourcesNames(List<Source> sources) {
    return sources.stream().map(Source::name).toList();
  }

  @FunctionalInterface
  private interface Operation {
    void run(ArchiveStorage storage) throws IOException;
  }

  private int countOperations(Operation op) throws IOException {
    Path dir = tmp.resolve("count");
    CrashingStorage counter = new CrashingStorage(storage(dir), 0);
    op.run(counter);
    return counter.operations();
  }

  /**
   * Runs the operation until the storage kills it. With two merge threads the number of
   * operations varies a little between runs, so a run may also finish before its kill point;
   * then the archive must simply hold the finished operation, which the checks verify too.
   */
  private static void crash(CrashingStorage storage, Operation op) throws IOException {
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
  }
}
