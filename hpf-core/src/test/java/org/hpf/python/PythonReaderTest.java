package org.hpf.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.hpf.internal.read.HpfReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The independent Python reader ({@code tools/hpf_read.py}, written from docs/FORMAT.md alone)
 * reads what the Java reader reads: the golden archive of every format version, and archives
 * the Java writer writes through a random life (create, append with replace, delete, compact).
 * Needs python3 (3.11 or later) on the PATH.
 */
class PythonReaderTest {
  @TempDir Path tmp;

  static Path golden(int version) {
    try {
      return Path.of(PythonReaderTest.class.getResource("/golden/v" + version + "/expected.txt")
          .toURI()).resolveSibling("archive.hpf");
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A copy of the archive directory {@code from} at {@code to}, to damage. */
  static Path copyOf(Path from, Path to) throws IOException {
    try (java.util.stream.Stream<Path> files = Files.walk(from)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Path target = to.resolve(from.relativize(file).toString());
        Files.createDirectories(target.getParent());
        Files.copy(file, target);
      }
    }
    return to;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7})
  void readsTheGoldenArchiveOfEveryFormatVersion(int version) throws IOException {
    Path archive = golden(version);
    try (HpfReader java = HpfReader.open(new Configuration(),
        new org.apache.hadoop.fs.Path(archive.toUri()))) {
      ReaderComparison.assertSameArchive(java, archive.toString(), tmp);
    }
    // Deleted in the golden archive's third generation: its tombstone hides its base record.
    ReaderComparison.assertNotFound(archive.toString(), "b/c/d/e.txt");
    ReaderComparison.assertNotFound(archive.toString(), "not-a-member");
  }

  /**
   * A flipped byte in a part is reported, not read past: verify exits with 4 (corrupt) naming
   * the part, and so does a get of every member whose entry holds it.
   */
  @Test
  void reportsAFlippedByteInAPart() throws IOException {
    Path copy = copyOf(golden(6), tmp.resolve("damaged.hpf"));
    Path part = copy.resolve("part-000000");
    byte[] bytes = Files.readAllBytes(part);
    int at = 24 + 4 + 40; // inside the first entry, past its header's fixed fields
    bytes[at] ^= 0x10;
    Files.write(part, bytes);
    PythonReader.Result verify = PythonReader.run("verify", copy.toString());
    assertEquals(4, verify.exitCode(), verify.out() + verify.stderr());
    assertTrue(verify.out().contains("problem: " + part), verify.out());
  }

  @Test
  void readsWhatTheJavaWriterWritesThroughARandomLife() throws IOException {
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path(
        tmp.resolve("life.hpf").toUri());
    Configuration conf = new Configuration();
    String location = tmp.resolve("life.hpf").toString();
    RandomArchiveLife.live(archive, conf, 42, (step, deleted) -> {
      Path work = Files.createDirectories(tmp.resolve(step));
      try (HpfReader java = HpfReader.open(conf, archive)) {
        ReaderComparison.assertSameArchive(java, location, work);
        if (step.equals("delete")) {
          assertTrue(java.layers().size() > 1, "the deletes are a layer of tombstones");
        }
      }
      for (String name : deleted) {
        ReaderComparison.assertNotFound(location, name);
      }
    });
  }

  /**
   * The Python reader evaluates codecs 3 and 4 where they decode and searches the records where
   * they do not: with every function section of the format 7 golden archive undecodable (its
   * checksums right), it extracts every member as the Java reader reads it from the intact
   * archive, and verify reports each index file's function, as corruption (exit code 4).
   */
  @Test
  void readsEveryMemberWhenNoFunctionDecodes() throws IOException {
    Path archive = copyOf(golden(7), tmp.resolve("undecodable.hpf"));
    int indexFiles = org.hpf.testing.IndexFunctionSurgery.rewriteAll(archive,
        (file, at, length) -> java.util.Arrays.fill(file, at, at + length, (byte) 0xA5));
    Path extracted = tmp.resolve("extracted");
    ReaderComparison.ok(PythonReader.run("extract", archive.toString(), extracted.toString()));
    try (HpfReader java = HpfReader.open(new Configuration(),
        new org.apache.hadoop.fs.Path(golden(7).toUri()));
        java.util.stream.Stream<org.hpf.internal.format.NameEntry> names = java.listEntries()) {
      for (var entry : (Iterable<org.hpf.internal.format.NameEntry>) names::iterator) {
        org.junit.jupiter.api.Assertions.assertArrayEquals(java.get(entry.name()),
            Files.readAllBytes(extracted.resolve(entry.name())), entry.name());
      }
    }
    PythonReader.Result verify = PythonReader.run("verify", archive.toString());
    assertEquals(4, verify.exitCode(), verify.out());
    assertEquals(indexFiles, verify.out().lines()
        .filter(line -> line.contains("function section cannot be decoded")).count(),
        verify.out());
  }
}
