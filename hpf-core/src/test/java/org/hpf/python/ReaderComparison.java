package org.hpf.python;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.hpf.MemberAccess;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.read.HpfReader;

/**
 * The Python reader against the Java reader on one archive: the same listing (names, lengths,
 * times, access classes), the same bytes of every member, and a clean verify.
 */
final class ReaderComparison {
  private ReaderComparison() {}

  /**
   * Compares what {@code hpf_read.py} reads at {@code location} (a local path or a webhdfs://
   * URL) with what {@code java} reads; {@code work} is an empty directory to extract into.
   */
  static void assertSameArchive(HpfReader java, String location, Path work, String... options)
      throws IOException {
    List<NameEntry> entries;
    try (Stream<NameEntry> listed = java.listEntries()) {
      entries = listed.toList();
    }
    StringBuilder listing = new StringBuilder();
    for (NameEntry entry : entries) {
      MemberAccess access = java.manifest().access(entry.access(), location);
      listing.append(String.format(Locale.ROOT, "%d\t%d\t%d\t%04o\t%s\t%s\t%s%n",
          entry.length(), entry.mtimeMillis(), entry.access(),
          access == null ? 0444 : access.mode(), access == null ? "-" : access.owner(),
          access == null ? "-" : access.group(), entry.name()));
    }
    PythonReader.Result ls = ok(PythonReader.run(with(options, "ls", "-l", location)));
    assertEquals(listing.toString(), ls.out(), location);

    Path extracted = work.resolve("extracted");
    ok(PythonReader.run(with(options, "extract", location, extracted.toString())));
    long files;
    try (Stream<Path> walk = Files.walk(extracted)) {
      files = walk.filter(Files::isRegularFile).count();
    }
    assertEquals(entries.size(), files, "members extracted");
    for (NameEntry entry : entries) {
      assertArrayEquals(java.get(entry.name()), Files.readAllBytes(extracted.resolve(
          entry.name())), entry.name());
    }
    PythonReader.Result verify = ok(PythonReader.run(with(options, "verify", location)));
    assertTrue(verify.out().endsWith("ok\n"), verify.out());
    assertTrue(verify.out().startsWith(entries.size() + " members"), verify.out());
  }

  /** Python's answer for a name the archive does not have: "not found", exit code 3. */
  static void assertNotFound(String location, String name, String... options)
      throws IOException {
    PythonReader.Result get = PythonReader.run(with(options, "get", location, name));
    assertEquals(3, get.exitCode(), get.stderr());
    assertTrue(get.stderr().contains("no member '" + name + "'"), get.stderr());
  }

  static PythonReader.Result ok(PythonReader.Result result) {
    assertEquals(0, result.exitCode(), result.stderr());
    return result;
  }

  private static String[] with(String[] options, String... args) {
    return Stream.concat(Stream.of(options), Stream.of(args)).toArray(String[]::new);
  }
}
