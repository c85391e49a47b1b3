package org.hpf.internal.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
