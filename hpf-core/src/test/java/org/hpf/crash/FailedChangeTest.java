package org.hpf.crash;

import static org.hpf.crash.ArchiveFixtures.hadoopPath;
import static org.hpf.crash.ArchiveFixtures.storage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.hpf.SourceException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.Source;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.LocalTrees;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A change that fails while its process lives (an I/O error at any step, a source that changed)
 * throws and leaves the archive exactly as it was: the same files with the same bytes, no journal
 * or part of its own, nothing a later writer or recovery could roll forward; and the same writer
 * can make the change afterwards. {@link CrashRecoveryBattery} covers a writer that dies instead.
 */
@Tag("slow")
class FailedChangeTest {
  private static final Configuration CONF = ArchiveFixtures.CONF;

  @TempDir Path tmp;
  private final Map<String, byte[]> expected = new TreeMap<>();
  private Path template;

  private static WriterOptions options() {
    return WriterOptions.builder().threads(2).partSize(48 * 1024).bucketCapacity(24)
        .journalBatch(8, 32 * 1024).build();
  }

  private List<Source> sources(String dir, String prefix, int count, long seed) throws IOException {
    return ArchiveFixtures.sources(tmp.resolve(dir), prefix, count, seed, expected);
  }

  /** A base archive of 80 members, and the members it holds. */
  private Map<String, byte[]> base() throws IOException {
    List<Source> base = sources("base", "b", 80, 2);
    template = tmp.resolve("template");
    ArchiveCreator.create(storage(template), base, options());
    return new TreeMap<>(expected);
  }

  @FunctionalInterface
  private interface Change {
    void run(ArchiveWriter writer) throws IOException;
  }

  /**
   * Fails {@code change} at each of its storage operations in turn, on a fresh copy of the base
   * archive; after each failure checks the archive is as it was, then makes the change with the
   * same writer and checks the archive holds {@code after}. Returns the operations exercised.
   */
  private int failEveryStep(Map<String, byte[]> before, Map<String, byte[]> after, Change change)
      throws IOException {
    Path counted = tmp.resolve("count");
    LocalTrees.copy(template, counted);
    FailingStorage counter = new FailingStorage(storage(counted));
    try (ArchiveWriter writer = ArchiveWriter.open(CONF, counter, options())) {
      counter.failAt(0);
      change.run(writer);
    }
    int total = counter.steps();
    Map<String, Long> files = files(template);
    int exercised = 0;
    for (int k = 1; k <= total; k++) {
      Path dir = tmp.resolve("fail-" + k);
      LocalTrees.copy(template, dir);
      FailingStorage storage = new FailingStorage(storage(dir));
      try (ArchiveWriter writer = ArchiveWriter.open(CONF, storage, options())) {
        storage.failAt(k);
        IOException e;
        try {
          change.run(writer);
          e = null;
        } catch (IOException failure) {
          e = failure;
        }
        boolean injected = storage.failed();
        storage.failAt(0);
        if (!injected) {
          // Two merge threads: a run may take fewer steps than the counted one.
          assertTrue(e == null, "k=" + k + ": failed without an injected failure: " + e);
          assertHolds(dir, after, "k=" + k + " (finished)");
          continue;
        }
        if (e == null) {
          // The failure came after the commit point, in cleanup: the change is complete.
          assertHolds(dir, after, "k=" + k + " (failed after its commit)");
          continue;
        }
        assertEquals(files, withoutLock(files(dir)), "k=" + k + ": files after " + e);
        assertHolds(dir, before, "k=" + k);
        change.run(writer);
        assertHolds(dir, after, "k=" + k + " (again)");
        exercised++;
      }
      try (ArchiveWriter writer = ArchiveWriter.open(CONF, hadoopPath(dir), options())) {
        assertFalse(writer.recovery().rolledForward(), "k=" + k);
      }
      assertHolds(dir, after, "k=" + k + " (reopened)");
    }
    System.out.println("failed at " + exercised + " of " + total + " steps");
    return exercised;
  }

  @Test
  void anAppendThatFailsAtAnyStepLeavesTheArchiveAsItWas() throws IOException {
    Map<String, byte[]> before = base();
    List<Source> added = sources("more", "c", 60, 3);
    Map<String, byte[]> after = new TreeMap<>(expected);
    int exercised = failEveryStep(before, after, writer -> writer.appendSources(added, false));
    assertTrue(exercised > 50, "too few failing steps: " + exercised);
  }

  @Test
  void aDeleteAndACompactionThatFailAtAnyStepLeaveTheArchiveAsItWas() throws IOException {
    Map<String, byte[]> before = base();
    List<String> doomed = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      doomed.add("b/f" + i);
    }
    Map<String, byte[]> after = new TreeMap<>(before);
    doomed.forEach(after::remove);
    assertTrue(failEveryStep(before, after, writer -> writer.delete(doomed)) > 10);
    try (ArchiveWriter writer = ArchiveWriter.open(CONF, hadoopPath(template), options())) {
      writer.delete(doomed);
    }
    assertTrue(failEveryStep(after, after, writer -> writer.compact(0.9)) > 10);
  }

  /** A source longer or shorter than when it was listed fails the append, which changes nothing. */
  @Test
  void anAppendWhoseSourceChangesLeavesTheArchiveAsItWas() throws IOException {
    Map<String, byte[]> before = base();
    List<Source> added = sources("more", "c", 60, 3);
    Map<String, byte[]> after = new TreeMap<>(expected);
    Map<String, Long> files = files(template);
    for (long delta : new long[] {-1, 1}) {
      List<Source> changed = new ArrayList<>(added);
      Source grown = changed.get(40);
      changed.set(40, new Source(grown.name(), grown.fs(), grown.path(), grown.length() + delta,
          grown.mtimeMillis()));
      Path dir = tmp.resolve("changed" + delta);
      LocalTrees.copy(template, dir);
      try (ArchiveWriter writer = ArchiveWriter.open(CONF, hadoopPath(dir), options())) {
        SourceException e = assertThrows(SourceException.class,
            () -> writer.appendSources(changed, false));
        assertTrue(e.getMessage().contains("changed"), e.getMessage());
        assertEquals(files, withoutLock(files(dir)), "delta " + delta);
        assertHolds(dir, before, "delta " + delta);
        writer.appendSources(added, false);
      }
      try (ArchiveWriter writer = ArchiveWriter.open(CONF, hadoopPath(dir), options())) {
        assertFalse(writer.recovery().rolledForward());
      }
      assertHolds(dir, after, "delta " + delta);
    }
  }

  private static void assertHolds(Path dir, Map<String, byte[]> members, String what)
      throws IOException {
    try (HpfReader reader = HpfReader.open(CONF, hadoopPath(dir))) {
      List<String> listed;
      try (Stream<String> names = reader.list()) {
        listed = names.toList();
      }
      assertEquals(new ArrayList<>(members.keySet()), listed, what);
      for (Map.Entry<String, byte[]> member : members.entrySet()) {
        assertArrayEquals(member.getValue(), reader.get(member.getKey()),
            what + ": " + member.getKey());
      }
    }
  }

  /** Relative path to length and CRC of every file of the archive directory. */
  private static Map<String, Long> files(Path root) throws IOException {
    Map<String, Long> files = new TreeMap<>();
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : (Iterable<Path>) paths.filter(Files::isRegularFile)::iterator) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(Files.readAllBytes(path));
        files.put(root.relativize(path).toString(), Files.size(path) << 32 | crc.getValue());
      }
    }
    return files;
  }

  private static Map<String, Long> withoutLock(Map<String, Long> files) {
    Map<String, Long> copy = new TreeMap<>(files);
    copy.remove(ArchiveLayout.LOCK);
    return copy;
  }
}
