package org.hpf.crash;

import static org.hpf.crash.ArchiveFixtures.hadoopPath;
import static org.hpf.crash.ArchiveFixtures.storage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.hpf.SourceException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.Source;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.LocalTrees;
import org.hpf.testing.MemoryTempDirs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A change that fails while its process lives (an I/O error at any step, a source that changed)
 * throws and leaves the archive exactly as it was: the same files with the same bytes, no journal
 * or part of its own, nothing a later writer or recovery could roll forward; and the same writer
 * can make the change afterwards. An I/O error after the commit point, or one whose operation
 * took effect before it was reported (a lost reply: a rename that happened, then threw), never
 * fails a change that was committed, nor removes what it published. {@link CrashRecoveryBattery}
 * covers a writer that dies instead.
 */
@Tag("slow")
class FailedChangeTest {
  private static final Configuration CONF = ArchiveFixtures.CONF;

  @TempDir(factory = MemoryTempDirs.class) Path tmp;
  private final Map<String, byte[]> expected = new TreeMap<>();
  private Path template;

  private static WriterOptions options() {
    return options(2);
  }

  private static WriterOptions options(int threads) {
    return WriterOptions.builder().settings(s -> s.threads(threads)).layout(l -> l
        .withPartSize(48 * 1024).withBucketCapacity(24)).journalBatch(8, 32 * 1024).build();
  }

  private List<Source> sources(String dir, String prefix, int count, long seed) throws IOException {
    return ArchiveFixtures.sources(tmp.resolve(dir), prefix, count, seed, expected);
  }

  /**
   * A base archive of 80 members, and the members it holds. One merge thread lays its parts out
   * the same way on every run: members in name order, a few parts of about 16 each.
   */
  private Map<String, byte[]> base() throws IOException {
    List<Source> base = sources("base", "b", 80, 2);
    template = tmp.resolve("template");
    ArchiveCreator.create(storage(template), base, options(1));
    return new TreeMap<>(expected);
  }

  @FunctionalInterface
  private interface Change {
    void run(ArchiveWriter writer) throws IOException;
  }

  /**
   * Fails {@code change} at each of its storage operations in turn, closing the writer
   * included, on a fresh copy of the base archive, with the {@code fault} given. After each,
   * either the change threw and the archive is exactly as it was (then the same writer makes
   * the change), or it succeeded (maybe with warnings: the fault came after its commit point)
   * and the archive holds {@code after}, every member readable; closing the writer never
   * throws after a commit. Returns the operations at which the change failed.
   */
  private int failEveryStep(Map<String, byte[]> before, Map<String, byte[]> after, Change change,
      FailingStorage.Fault fault) throws IOException {
    Path counted = tmp.resolve("count-" + fault);
    LocalTrees.copy(template, counted);
    FailingStorage counter = new FailingStorage(storage(counted), fault);
    ArchiveWriter counting = ArchiveWriter.open(CONF, counter, options());
    counter.failAt(0);
    change.run(counting);
    counting.close();
    int total = counter.steps();
    Map<String, Long> files = files(template);
    int exercised = 0;
    for (int k = 1; k <= total; k++) {
      String at = "k=" + k + " (" + fault + ")";
      Path dir = tmp.resolve("fail-" + fault + "-" + k);
      LocalTrees.copy(template, dir);
      FailingStorage storage = new FailingStorage(storage(dir), fault);
      ArchiveWriter writer = ArchiveWriter.open(CONF, storage, options());
      storage.failAt(k);
      IOException e;
      try {
        change.run(writer);
        e = null;
      } catch (IOException failure) {
        e = failure;
      }
      if (e == null) {
        // Two merge threads: a run may take fewer steps than the counted one. A failure
        // after the commit point must not fail the change.
        assertHolds(dir, after, at + " (succeeded, failed at " + storage.failedAt() + ")");
      } else {
        assertTrue(storage.failed(), at + ": failed without an injected failure: " + e);
        assertEquals(files, withoutLock(files(dir)), at + ": files after " + e);
        assertHolds(dir, before, at + " (failed at " + storage.failedAt() + ")");
        change.run(writer);
        assertHolds(dir, after, at + " (again)");
        exercised++;
      }
      writer.close(); // may meet the fault (releasing the lock): the change stands
      releaseLeftoverLock(dir, storage, at);
      try (ArchiveWriter reopened = ArchiveWriter.open(CONF, hadoopPath(dir), options())) {
        assertFalse(reopened.recovery().rolledForward(), at);
      }
      assertHolds(dir, after, at + " (reopened)");
    }
    System.out.println(fault + ": failed at " + exercised + " of " + total + " steps");
    return exercised;
  }

  /**
   * A lock whose release failed stays until its holder is gone; this process lives on, so the
   * test removes it. Only a failure of the release's own steps may leave it: moving the lock
   * to its holder's name (on this file system) or deleting it.
   */
  private static void releaseLeftoverLock(Path dir, FailingStorage storage, String at)
      throws IOException {
    if (Files.deleteIfExists(dir.resolve(ArchiveLayout.LOCK))) {
      String failed = storage.failedAt();
      assertTrue(failed.equals("rename " + ArchiveLayout.LOCK)
          || failed.equals("delete " + ArchiveLayout.LOCK), at + ": lock left by a failure at "
          + failed);
    }
  }

  @Test
  void anAppendThatFailsAtAnyStepLeavesTheArchiveAsItWas() throws IOException {
    Map<String, byte[]> before = base();
    List<Source> added = sources("more", "c", 60, 3);
    Map<String, byte[]> after = new TreeMap<>(expected);
    for (FailingStorage.Fault fault : FailingStorage.Fault.values()) {
      int exercised = failEveryStep(before, after, writer -> writer.appendSources(added, false),
          fault);
      assertTrue(exercised > 50, fault + ": too few failing steps: " + exercised);
    }
  }

  /**
   * A member whose part fills and is sealed, but whose journal batch then fails to sync, leaves
   * the change in no known state (the part has its footer; the journal may hold part of the
   * batch): every member added after it is refused with that failure as the cause, never
   * written after the footer or journaled after the broken batch, and an abort leaves the
   * archive as it was.
   */
  @Test
  void membersAddedAfterAFailedPartRolloverAreRefusedWithItsCause() throws IOException {
    Map<String, byte[]> before = base();
    Path dir = tmp.resolve("rollover");
    LocalTrees.copy(template, dir);
    Map<String, Long> files = files(dir);
    FaultyStorage failsAfterASeal = new FaultyStorage(storage(dir)) {
      private boolean partSealed;
      private IOException injected;

      @Override
      void mutation(String operation) throws IOException {
        if (operation.startsWith("close part-")) {
          partSealed = true;
        } else if (partSealed && injected == null && operation.startsWith("hsync "
            + ArchiveLayout.JOURNAL_PREFIX)) {
          injected = new IOException("injected failure at " + operation);
          throw injected;
        }
      }

      @Override
      void access(String operation) {}
    };
    Map<String, byte[]> added = new TreeMap<>();
    Random random = new Random(7);
    try (ArchiveWriter writer = ArchiveWriter.open(CONF, failsAfterASeal, options(1))) {
      IOException first = null;
      for (int i = 0; first == null; i++) {
        byte[] bytes = new byte[4000 + random.nextInt(4000)];
        random.nextBytes(bytes);
        added.put("r/f" + i, bytes);
        try {
          writer.add("r/f" + i, bytes, 1_000_000L);
        } catch (IOException e) {
          first = e;
        }
        assertTrue(i < 100, "no part was sealed after 100 members");
      }
      assertTrue(first.getMessage().startsWith("injected failure at hsync"), first.toString());
      IOException cause = first;
      IOException refused = assertThrows(IOException.class,
          () -> writer.add("r/after", new byte[10], 1_000_000L));
      assertSame(cause, refused.getCause(), refused.toString());
      assertThrows(IOException.class, writer::commit);
      writer.abort();
      assertEquals(files, withoutLock(files(dir)));
      assertHolds(dir, before, "after the abort");
      for (Map.Entry<String, byte[]> member : added.entrySet()) {
        writer.add(member.getKey(), member.getValue(), 1_000_000L);
      }
      writer.commit();
    }
    Map<String, byte[]> after = new TreeMap<>(before);
    after.putAll(added);
    assertHolds(dir, after, "after the change made again");
  }

  @Test
  void aDeleteAndACompactionThatFailAtAnyStepLeaveTheArchiveAsItWas() throws IOException {
    Map<String, byte[]> before = base();
    // Five of every eight: each part keeps live members among dead ones, so the compaction
    // below copies members into a new part (a part wholly live or wholly dead is not copied,
    // and a compaction that only drops dead parts has few steps to fail at).
    List<String> doomed = new ArrayList<>();
    for (int i = 0; i < 80; i++) {
      if (i % 8 < 5) {
        doomed.add("b/f" + i);
      }
    }
    Map<String, byte[]> after = new TreeMap<>(before);
    doomed.forEach(after::remove);
    for (FailingStorage.Fault fault : FailingStorage.Fault.values()) {
      assertTrue(failEveryStep(before, after, writer -> writer.delete(doomed), fault) > 10);
    }
    try (ArchiveWriter writer = ArchiveWriter.open(CONF, hadoopPath(template), options())) {
      writer.delete(doomed);
      for (Manifest.PartInfo part : writer.manifest().parts()) {
        assertTrue(part.liveEntries() > 0 && part.liveFraction() < 0.9, "part " + part.id()
            + " would not be copied: " + part.liveEntries() + " live, " + part.liveFraction());
      }
    }
    for (FailingStorage.Fault fault : FailingStorage.Fault.values()) {
      assertTrue(failEveryStep(after, after, writer -> writer.compact(0.9), fault) > 10);
    }
  }

  /**
   * A create that fails at any step, closing included, either threw and left no archive (the
   * directory is removed, unless removing it was the step that failed, and then no generation
   * is committed in it) or succeeded and holds every member.
   */
  @Test
  void aCreateThatFailsAtAnyStepLeavesNoArchiveOrAWholeOne() throws IOException {
    List<Source> members = sources("created", "a", 40, 7);
    Map<String, byte[]> created = new TreeMap<>(expected);
    Change create = writer -> {
      for (Source member : members) {
        writer.add(member.name(), expected.get(member.name()), member.mtimeMillis());
      }
      writer.commit();
    };
    for (FailingStorage.Fault fault : FailingStorage.Fault.values()) {
      FailingStorage counter = new FailingStorage(storage(tmp.resolve("count-create-" + fault)),
          fault);
      ArchiveWriter counting = ArchiveWriter.create(CONF, counter, options());
      counter.failAt(0);
      create.run(counting);
      counting.close();
      int total = counter.steps();
      int exercised = 0;
      for (int k = 1; k <= total; k++) {
        String at = "k=" + k + " (" + fault + ")";
        Path dir = tmp.resolve("create-" + fault + "-" + k);
        FailingStorage storage = new FailingStorage(storage(dir), fault);
        ArchiveWriter writer = ArchiveWriter.create(CONF, storage, options());
        storage.failAt(k);
        IOException e;
        try {
          create.run(writer);
          e = null;
        } catch (IOException failure) {
          e = failure;
        }
        writer.close(); // may meet the fault: a committed create stands
        releaseLeftoverLock(dir, storage, at);
        if (e == null) {
          assertHolds(dir, created, at + " (succeeded, failed at " + storage.failedAt() + ")");
          continue;
        }
        exercised++;
        assertFalse(Files.exists(dir.resolve(Manifest.fileName(1))),
            at + ": a create that threw committed: " + e);
        assertTrue(!Files.exists(dir) || storage.failedAt().startsWith("deleteRoot"),
            at + ": a failed create left its directory: " + e);
      }
      System.out.println("create " + fault + ": failed at " + exercised + " of " + total
          + " steps");
      assertTrue(exercised > 30, fault + ": too few failing steps: " + exercised);
    }
  }

  /**
   * Storage whose manifest rename takes effect and then throws, and which then cannot read a
   * manifest back: whether the commit happened cannot be told.
   */
  private static final class UnsettledRename extends FaultyStorage {
    private volatile boolean renamed;

    UnsettledRename(ArchiveStorage delegate) {
      super(delegate);
    }

    @Override
    void mutation(String operation) {}

    @Override
    void applied(String operation) throws IOException {
      if (!renamed && operation.startsWith("rename " + Manifest.DIR + "/.tmp-")) {
        renamed = true;
        throw new IOException("connection reset by peer");
      }
    }

    @Override
    void access(String operation) throws IOException {
      if (renamed && operation.startsWith("open " + Manifest.DIR + "/")) {
        throw new IOException("NameNode unreachable");
      }
    }
  }

  /**
   * A commit whose outcome cannot be settled throws, says so and removes nothing: here the
   * rename took effect, so the archive holds the whole change, and the created archive stays.
   */
  @Test
  void aCommitWhoseOutcomeIsUnknownRemovesNothing() throws IOException {
    Map<String, byte[]> before = base();
    List<Source> added = sources("more", "c", 60, 3);
    Map<String, byte[]> after = new TreeMap<>(expected);
    Path dir = tmp.resolve("unsettled-append");
    LocalTrees.copy(template, dir);
    try (ArchiveWriter writer = ArchiveWriter.open(CONF, new UnsettledRename(storage(dir)),
        options())) {
      IOException e = assertThrows(IOException.class, () -> writer.appendSources(added, false));
      assertTrue(e.getMessage().contains("could not tell whether generation 2 was committed"),
          e.getMessage());
    }
    assertHolds(dir, after, "unknown append outcome");
    try (ArchiveWriter writer = ArchiveWriter.open(CONF, hadoopPath(dir), options())) {
      assertFalse(writer.recovery().rolledForward());
    }
    assertHolds(dir, after, "unknown append outcome, recovered");
    assertTrue(before.size() < after.size());

    Path createdDir = tmp.resolve("unsettled-create");
    try (ArchiveWriter writer = ArchiveWriter.create(CONF,
        new UnsettledRename(storage(createdDir)), options())) {
      for (Map.Entry<String, byte[]> member : before.entrySet()) {
        writer.add(member.getKey(), member.getValue(), 0);
      }
      assertThrows(IOException.class, writer::commit);
    }
    assertHolds(createdDir, before, "unknown create outcome");
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
