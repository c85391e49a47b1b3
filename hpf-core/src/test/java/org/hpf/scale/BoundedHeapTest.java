package org.hpf.scale;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.hpf.internal.format.MemberNames;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.read.ArchiveVerifier;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.ChangeResult;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A million members through the writer API in a JVM whose heap is 128 MiB (its own surefire
 * run, see hpf-core's pom): the writer spills names and records instead of holding them, so
 * this fails with OutOfMemoryError if its memory grows with the number of members. Then a
 * sample is read back byte for byte, every name is listed, and the archive is verified.
 */
@Tag("slow")
class BoundedHeapTest {
  static final int MEMBERS = 1_000_000;
  static final long MTIME = 1_700_000_000_000L;

  @TempDir Path tmp;

  /** Member i: a name spread over 1,000 directories, and 0 to 120 bytes derived from i. */
  static String name(int i) {
    return String.format("d%03d/member-%07d.log", i % 1000, i);
  }

  static byte[] bytes(int i) {
    SplittableRandom random = new SplittableRandom(i);
    byte[] bytes = new byte[random.nextInt(121)];
    for (int b = 0; b < bytes.length; b++) {
      bytes[b] = (byte) ('a' + random.nextInt(8)); // compressible, like logs
    }
    return bytes;
  }

  @Test
  void aMillionMembersInA128MibHeap() throws IOException {
    assertTrue(Runtime.getRuntime().maxMemory() <= 160L << 20,
        "this test must run in a small heap, not " + (Runtime.getRuntime().maxMemory() >> 20)
            + " MiB");
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path archive =
        new org.apache.hadoop.fs.Path(tmp.resolve("million.hpf").toUri());
    WriterOptions options = WriterOptions.builder().settings(s -> s.threads(2)
        .scratchDirectory(tmp.resolve("scratch"))).build();
    ChangeResult result;
    try (ArchiveWriter writer = ArchiveWriter.create(conf, archive, options)) {
      for (int i = 0; i < MEMBERS; i++) {
        writer.add(name(i), bytes(i), MTIME + i);
      }
      result = writer.commit();
    }
    assertEquals(MEMBERS, result.fileCount());
    assertTrue(result.bucketsRewritten() > 10, "a million records need many buckets");

    try (HpfReader reader = HpfReader.open(conf, archive)) {
      SplittableRandom random = new SplittableRandom(42);
      for (int s = 0; s < 2_000; s++) {
        int i = random.nextInt(MEMBERS);
        assertArrayEquals(bytes(i), reader.get(name(i)), name(i));
        assertEquals(MTIME + i, reader.stat(name(i)).mtimeMillis());
      }
      long listed = 0;
      String previous = null;
      try (var names = reader.list()) {
        for (Iterator<String> it = names.iterator(); it.hasNext(); ) {
          String name = it.next();
          assertTrue(previous == null || MemberNames.compare(previous, name) < 0,
              "names out of order: " + previous + ", " + name);
          previous = name;
          listed++;
        }
      }
      assertEquals(MEMBERS, listed);
    }
    HadoopStorage storage = new HadoopStorage(archive.getFileSystem(conf), archive, (short) 0);
    ArchiveVerifier.Report report =
        ArchiveVerifier.verify(storage, ReaderOptions.defaults(), bytes -> { });
    assertTrue(report.ok(), () -> "problems: " + report.problems());
    assertEquals(MEMBERS, report.members());
  }
}
