package org.hpf.crash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.nio.file.Path;
import java.util.Map;
import org.hpf.LockLostException;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.read.ArchiveVerifier;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.testing.MemoryTempDirs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A create paused past a broken lock, under an object store's commit rules: recovery removes
 * what it wrote, another create takes the path and is under way when the paused one fails and
 * cleans up. The clean-up removes only what the paused create made, so the create under way
 * commits every member it added.
 */
class PausedCreatorTest {
  @TempDir(factory = MemoryTempDirs.class) Path tmp;

  @Test
  void aFailedCreatorLeavesTheCreateThatTookThePathAlone() throws Exception {
    ScheduleExplorer.Place place = ScheduleExplorer.conditionalLocalDisk(tmp);
    org.apache.hadoop.fs.Path archive = place.newArchive("paused");
    Map<String, byte[]> lost = ScheduleExplorer.members("lost/", 8, 1);
    Map<String, byte[]> kept = ScheduleExplorer.members("kept/", 8, 2);

    ArchiveWriter paused = ArchiveWriter.create(place.conf(), place.storage(archive),
        ScheduleExplorer.options(false));
    add(paused, lost);
    // Recovery, breaking the paused creator's lock, removes the create that never committed.
    assertThrows(FileNotFoundException.class, () -> ArchiveWriter.open(place.conf(),
        place.storage(archive), ScheduleExplorer.options(true)));

    ArchiveStorage storage = place.storage(archive);
    try (ArchiveWriter next = ArchiveWriter.create(place.conf(), storage,
        ScheduleExplorer.options(false))) {
      add(next, kept);
      assertTrue(storage.list("").stream().anyMatch(name -> name.startsWith("part-")),
          "the create under way has sealed parts, of the names the paused one used");
      // The paused create goes on: its lock was broken, so it fails, and cleans up.
      assertThrows(LockLostException.class, paused::close);
      next.commit();
    }

    try (HpfReader reader = HpfReader.open(storage, ReaderOptions.defaults())) {
      assertEquals(kept.size(), reader.manifest().fileCount());
      for (Map.Entry<String, byte[]> member : kept.entrySet()) {
        assertArrayEquals(member.getValue(), reader.get(member.getKey()), member.getKey());
      }
    }
    ArchiveVerifier.Report report = ArchiveVerifier.verify(storage, ReaderOptions.defaults(),
        bytes -> {});
    assertTrue(report.ok(), report.problems().toString());
  }

  private static void add(ArchiveWriter writer, Map<String, byte[]> members) throws Exception {
    for (Map.Entry<String, byte[]> member : members.entrySet()) {
      writer.add(member.getKey(), member.getValue(), 1_000_000L);
    }
  }

  /**
   * What a MapReduce build's late writers leave where its driver removed a create that never
   * committed (the job commit's record of why it failed creates its directories): a create
   * there is refused with the way out, and recovery removes it, leaving no path.
   */
  @Test
  void stagedWorkLeftWhereNoCreateIsIsRemovedByRecovery() throws Exception {
    Path dir = tmp.resolve("late.hpf");
    java.nio.file.Files.createDirectories(dir.resolve("_staging/token/failures"));
    java.nio.file.Files.writeString(dir.resolve("_staging/token/failures/job-commit"), "failed");
    ArchiveStorage storage = ArchiveFixtures.storage(dir);
    var exists = assertThrows(org.hpf.ArchiveExistsException.class, () -> ArchiveWriter.create(
        ArchiveFixtures.CONF, storage, ScheduleExplorer.options(false)).close());
    assertTrue(exists.getMessage().contains("hpf recover removes it"), exists.getMessage());
    var removed = assertThrows(FileNotFoundException.class, () -> ArchiveWriter.open(
        ArchiveFixtures.CONF, storage, ScheduleExplorer.options(false)).close());
    assertTrue(removed.getMessage().contains("recovery removed what it left"),
        removed.getMessage());
    assertTrue(java.nio.file.Files.notExists(dir), "the path is still there");
  }
}
