package org.hpf.python;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.hpf.ArchiveVersionException;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.read.ArchiveVerifier;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.testing.IndexFunctionSurgery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The compatibility promise of docs/FORMAT.md, kept by both readers: a file of a version newer
 * than the reader's is refused with an error naming its version (Java: {@link
 * ArchiveVersionException}; Python: exit code 5), never read as something else; a function codec
 * newer than the reader's costs only speed, since the records are found by searching them.
 */
class NewerFormatTest {
  @TempDir Path tmp;

  private Path newerCopy() throws IOException {
    return PythonReaderTest.copyOf(PythonReaderTest.golden(7), tmp.resolve("newer.hpf"));
  }

  private static HpfReader open(Path archive) throws IOException {
    return HpfReader.open(new Configuration(), new org.apache.hadoop.fs.Path(archive.toUri()));
  }

  /** Gives every file of {@code archive} whose name starts with {@code prefix} this version. */
  private static void setVersion(Path archive, String prefix, int version) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(archive)) {
      files = walk.filter(f -> f.getFileName().toString().startsWith(prefix)).toList();
    }
    assertTrue(!files.isEmpty(), prefix);
    for (Path file : files) {
      byte[] bytes = Files.readAllBytes(file);
      bytes[5] = (byte) version;
      java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
      crc.update(bytes, 0, bytes.length - 4);
      ByteBuffer.wrap(bytes).putInt(bytes.length - 4, (int) crc.getValue());
      Files.write(file, bytes);
    }
  }

  private static void assertPythonRefuses(String expected, String... args) throws IOException {
    PythonReader.Result result = PythonReader.run(args);
    assertEquals(5, result.exitCode(), result.stderr());
    assertTrue(result.stderr().contains(expected), result.stderr());
  }

  @Test
  void aNewerManifestIsRefusedNamingItsVersion() throws IOException {
    Path archive = newerCopy();
    setVersion(archive, "manifest-", 7);
    ArchiveVersionException e = assertThrows(ArchiveVersionException.class,
        () -> open(archive).close());
    assertTrue(e.getMessage().contains("version 7 is too new"), e.getMessage());
    assertPythonRefuses("manifest version 7 is too new", "ls", archive.toString());
  }

  /** A newer index or part file is refused where it is read, and only there. */
  @ParameterizedTest
  @CsvSource({"index-, 4, index", "part-, 3, part"})
  void aNewerFileIsRefusedNamingItsVersion(String prefix, int version, String kind)
      throws IOException {
    Path archive = newerCopy();
    setVersion(archive, prefix, version);
    try (HpfReader java = open(archive)) {
      ArchiveVersionException e = assertThrows(ArchiveVersionException.class,
          () -> java.get("text/lorem.txt"));
      assertTrue(e.getMessage().contains("version " + version + " is too new"), e.getMessage());
    }
    assertPythonRefuses(kind + " version " + version + " is too new", "get", archive.toString(),
        "text/lorem.txt");
  }

  /**
   * Every index file with a function codec this build does not know (its checksums right): both
   * readers read every member by searching the records; both verifies name the codec.
   */
  @Test
  void aNewerFunctionCodecIsReadBySearchingTheRecords() throws IOException {
    Path archive = newerCopy();
    int indexFiles = IndexFunctionSurgery.rewriteAll(archive,
        (file, at, length) -> file[IndexFunctionSurgery.CODEC_AT] = 9);
    Path extracted = tmp.resolve("extracted");
    ReaderComparison.ok(PythonReader.run("extract", archive.toString(), extracted.toString()));
    try (HpfReader golden = open(PythonReaderTest.golden(7)); HpfReader newer = open(archive);
        Stream<NameEntry> names = golden.listEntries()) {
      for (NameEntry entry : (Iterable<NameEntry>) names::iterator) {
        byte[] bytes = golden.get(entry.name());
        assertArrayEquals(bytes, newer.get(entry.name()), entry.name());
        assertArrayEquals(bytes, Files.readAllBytes(extracted.resolve(entry.name())),
            entry.name());
      }
    }
    ArchiveVerifier.Report report = ArchiveVerifier.verify(new HadoopStorage(
        org.apache.hadoop.fs.FileSystem.getLocal(new Configuration()),
        new org.apache.hadoop.fs.Path(archive.toUri()), (short) 0), ReaderOptions.defaults(),
        bytes -> { });
    assertEquals(indexFiles, report.problems().size(), report.problems().toString());
    assertTrue(report.problems().get(0).contains("unknown function codec 9"),
        report.problems().get(0));
    PythonReader.Result verify = PythonReader.run("verify", archive.toString());
    assertEquals(4, verify.exitCode(), verify.out());
    assertEquals(indexFiles, verify.out().lines()
        .filter(line -> line.contains("function codec 9 is not one this reader knows")).count(),
        verify.out());
  }
}
