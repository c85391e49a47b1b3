package org.hpf.internal.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.hpf.ExistingNames;
import org.hpf.NameExistsException;
import org.hpf.internal.read.HpfReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finishing an interrupted append: the same sources again, with members already in the archive
 * and identical to their sources skipped, and a source that differs still refused.
 */
class SkipExistingTest {
  @TempDir Path tmp;
  private final Configuration conf = new Configuration();

  private static org.apache.hadoop.fs.Path hadoop(Path path) {
    return new org.apache.hadoop.fs.Path(path.toUri());
  }

  @Test
  void theSameAppendAgainAddsOnlyWhatIsMissing() throws Exception {
    Path src = Files.createDirectories(tmp.resolve("src/day"));
    for (int i = 0; i < 6; i++) {
      Files.writeString(src.resolve("f" + i), "content " + i);
    }
    Path first = Files.createDirectories(tmp.resolve("first"));
    Files.writeString(first.resolve("seed"), "seed");
    org.apache.hadoop.fs.Path archive = hadoop(tmp.resolve("a.hpf"));
    ArchiveCreator.create(conf, archive, List.of(hadoop(first)), WriterOptions.defaults());
    // The interrupted append had made f0..f2 durable (as a roll-forward would commit them).
    Path part = Files.createDirectories(tmp.resolve("part/day"));
    for (int i = 0; i < 3; i++) {
      Files.copy(src.resolve("f" + i), part.resolve("f" + i));
    }
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, WriterOptions.defaults())) {
      writer.append(List.of(hadoop(part.getParent())), false);
    }

    ChangeResult finished;
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, WriterOptions.defaults())) {
      assertThrows(NameExistsException.class,
          () -> writer.append(List.of(hadoop(src.getParent())), ExistingNames.FAIL));
      finished = writer.append(List.of(hadoop(src.getParent())), ExistingNames.SKIP_IDENTICAL);
    }
    assertEquals(3, finished.filesSkipped());
    assertEquals(3, finished.filesAdded());
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      assertEquals(7, reader.manifest().fileCount());
      for (int i = 0; i < 6; i++) {
        assertArrayEquals(("content " + i).getBytes(), reader.get("day/f" + i));
      }
    }

    // A source that differs from its member (same length) is not skipped: the append fails.
    Files.writeString(src.resolve("f1"), "CONTENT 1");
    Files.writeString(src.resolve("f9"), "new");
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, WriterOptions.defaults())) {
      NameExistsException differs = assertThrows(NameExistsException.class,
          () -> writer.append(List.of(hadoop(src.getParent())), ExistingNames.SKIP_IDENTICAL));
      assertTrue(differs.getMessage().contains("day/f1"), differs.getMessage());
      assertEquals(3, writer.manifest().generation(), "nothing was committed");
    }
  }

  /**
   * An append that skips identical members judges them by their stored checksums; removing the
   * sources afterwards must not: a member damaged in the archive keeps its source, and a source
   * of the same length with other bytes is refused by the append and kept by the removal.
   */
  @Test
  void sourcesOfSkippedMembersGoOnlyWhenTheirArchivedCopiesReadBack() throws Exception {
    Path src = Files.createDirectories(tmp.resolve("src/day"));
    for (int i = 0; i < 4; i++) {
      Files.writeString(src.resolve("f" + i), "content " + i);
    }
    org.apache.hadoop.fs.Path archive = hadoop(tmp.resolve("a.hpf"));
    ArchiveCreator.create(conf, archive, List.of(hadoop(src.getParent())),
        WriterOptions.defaults());
    SourceRemovalTest.damageMember(conf, archive, "day/f1");
    Files.writeString(src.resolve("f9"), "new");
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, WriterOptions.defaults())) {
      ChangeResult again = writer.append(List.of(hadoop(src.getParent())),
          ExistingNames.SKIP_IDENTICAL);
      assertEquals(4, again.filesSkipped(), "the stored checksums match: f1 is skipped too");
    }
    Files.writeString(src.resolve("f2"), "CONTENT 2"); // same length, other bytes

    SourceRemoval.Result removed = SourceRemoval.run(conf, archive,
        List.of(hadoop(src.getParent())), new SourceRemoval.Options(false, 2));
    String kept = String.join("\n", removed.firstKept());
    assertEquals(2, removed.filesKept(), kept);
    assertTrue(kept.contains("f1: its archived copy"), kept);
    assertTrue(kept.contains("f2: its bytes differ"), kept);
    assertEquals(3, removed.filesDeleted());
    assertTrue(Files.exists(src.resolve("f1")) && Files.exists(src.resolve("f2")));
    assertFalse(Files.exists(src.resolve("f0")));
  }
}
