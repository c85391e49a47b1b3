package org.hpf.internal.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.hpf.SourceException;
import org.hpf.SymlinkPolicy;
import org.hpf.internal.read.HpfReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Symbolic links among the sources: skipped and counted by default, followed (with loops
 * refused) or refused on request, and dangling ones reported, never dropped in silence.
 */
class SymlinkSourcesTest {
  @TempDir Path tmp;
  private final Configuration conf = new Configuration();

  /** src/{f1, f2, sub/x}, links to a file, to a directory outside, and a dangling one. */
  private Path tree(boolean withLoop) throws IOException {
    Path src = Files.createDirectories(tmp.resolve("src"));
    Files.writeString(src.resolve("f1"), "one");
    Files.writeString(src.resolve("f2"), "two");
    Files.createDirectories(src.resolve("sub"));
    Files.writeString(src.resolve("sub/x"), "x");
    Path outside = Files.createDirectories(tmp.resolve("outside"));
    Files.writeString(outside.resolve("g"), "gee");
    Files.createSymbolicLink(src.resolve("link-file"), Path.of("f1"));
    Files.createSymbolicLink(src.resolve("link-dir"), outside);
    Files.createSymbolicLink(src.resolve("broken"), Path.of("nowhere"));
    if (withLoop) {
      Files.createSymbolicLink(src.resolve("sub/up"), Path.of(".."));
    }
    return src;
  }

  private CreateResult create(Path src, String name, SymlinkPolicy policy) throws IOException {
    return ArchiveCreator.create(conf, hadoop(tmp.resolve(name)), List.of(hadoop(src)),
        WriterOptions.builder().settings(s -> s.threads(1).symlinks(policy)).build());
  }

  private static org.apache.hadoop.fs.Path hadoop(Path path) {
    return new org.apache.hadoop.fs.Path(path.toUri());
  }

  private List<String> names(String archive) throws IOException {
    try (HpfReader reader = HpfReader.open(conf, hadoop(tmp.resolve(archive)));
        var names = reader.list()) {
      return names.toList();
    }
  }

  @Test
  void skippedByDefaultAndCounted() throws IOException {
    CreateResult result = ArchiveCreator.create(conf, hadoop(tmp.resolve("a.hpf")),
        List.of(hadoop(tree(true))), WriterOptions.builder().settings(s -> s.threads(1)).build());
    assertEquals(List.of("f1", "f2", "sub/x"), names("a.hpf"));
    assertEquals(3, result.links().skippedCount()); // link-file, link-dir, sub/up
    assertEquals(0, result.links().followedCount());
    assertEquals(1, result.links().danglingCount());
    assertTrue(result.links().describe().contains("broken"), result.links().describe());
  }

  @Test
  void followedWhenAskedWithTheTargetsBytes() throws IOException {
    CreateResult result = create(tree(false), "b.hpf", SymlinkPolicy.FOLLOW);
    assertEquals(List.of("f1", "f2", "link-dir/g", "link-file", "sub/x"), names("b.hpf"));
    assertEquals(2, result.links().followedCount());
    assertEquals(1, result.links().danglingCount());
    try (HpfReader reader = HpfReader.open(conf, hadoop(tmp.resolve("b.hpf")))) {
      assertArrayEquals("one".getBytes(), reader.get("link-file"));
      assertArrayEquals("gee".getBytes(), reader.get("link-dir/g"));
    }
  }

  @Test
  void aLoopFailsWithAClearErrorAndLeavesNoArchive() throws IOException {
    SourceException loop = assertThrows(SourceException.class,
        () -> create(tree(true), "c.hpf", SymlinkPolicy.FOLLOW));
    assertTrue(loop.getMessage().contains("symbolic link loop"), loop.getMessage());
    assertTrue(loop.getMessage().contains("sub/up"), loop.getMessage());
    assertFalse(Files.exists(tmp.resolve("c.hpf")));
  }

  @Test
  void failRefusesTheFirstLinkAndDanglingOnes() throws IOException {
    Path src = tree(false);
    SourceException link = assertThrows(SourceException.class,
        () -> create(src, "d.hpf", SymlinkPolicy.FAIL));
    assertTrue(link.getMessage().contains("symbolic link among the sources"), link.getMessage());
    Files.delete(src.resolve("link-file"));
    Files.delete(src.resolve("link-dir"));
    SourceException dangling = assertThrows(SourceException.class,
        () -> create(src, "d.hpf", SymlinkPolicy.FAIL));
    assertTrue(dangling.getMessage().contains("dangling"), dangling.getMessage());
    assertFalse(Files.exists(tmp.resolve("d.hpf")));
  }
}
