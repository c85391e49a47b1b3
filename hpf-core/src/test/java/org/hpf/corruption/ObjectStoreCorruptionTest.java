package org.hpf.corruption;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.Compression;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.read.EntryStatus;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;
import org.hpf.minicluster.S3Server;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The corruption sweep, reduced, on s3a:// against a real S3-protocol server: a small archive of
 * three generations (create, append with replace, delete), four truncations and two flips per
 * file. An object cannot be changed in place: each damage deletes it and creates it again with
 * the modified bytes. A reader opens parts and index files at the lengths the manifest records,
 * without asking the store: a truncated object is found out only by a read past its end, which
 * must be reported as damage like any other.
 */
@Tag("s3")
class ObjectStoreCorruptionTest {
  /**
   * The classic stream opens an object at the length it is given and sends no HEAD: a reader
   * learns of a truncation from the read that passes the object's end. The bucket is these
   * tests' and {@code S3aMutationTest}'s, whose clients read the same way.
   */
  private static Configuration conf;

  @TempDir Path tmp;

  @BeforeAll
  static void classicStream() throws IOException {
    conf = S3Server.shared().configuration();
    conf.set("fs.s3a.input.stream.type", "classic");
  }

  @Test
  void everyDamageIsReportedOrHarmlessOnAnObjectStore() throws Exception {
    long seed = LocalCorruptionTest.seed();
    org.apache.hadoop.fs.Path archive = archive("a.hpf");
    FileSystem fs = archive.getFileSystem(conf);
    // 21 base records, then 5 replaced and 1 of them deleted: three layers, each less than a
    // quarter of the one below.
    CorruptionSweep.Model model = CorruptionSweep.build(conf, tmp, archive, 20, 0, 5, 1, 16,
        64 * 1024, 20240603L);
    // Each index read is a request the server takes milliseconds to answer.
    new CorruptionSweep(fs, archive, CorruptionSweep.hadoop(fs, archive),
        CorruptionSweep.Truncations.SEEN_BY_READS_PAST_THE_END)
        .cachingRecords()
        .sweepReduced(model, 2, seed);
    fs.delete(archive, true);
  }

  /**
   * A part cut short before the reader opened it: a get of a member past the cut says that the
   * part is shorter than the archive records (not that it was cut while open, as where the store
   * gives the length); a member before the cut reads back.
   */
  @Test
  void aPartShorterThanRecordedIsReportedAsTruncated() throws Exception {
    org.apache.hadoop.fs.Path archive = archive("short-part.hpf");
    FileSystem fs = archive.getFileSystem(conf);
    byte[] bytes = new byte[3000];
    new java.util.Random(5).nextBytes(bytes);
    WriterOptions options = WriterOptions.builder()
        .settings(s -> s.threads(1).compression(Compression.NONE)).build();
    try (ArchiveWriter writer = ArchiveWriter.create(conf, archive, options)) {
      for (String name : List.of("a", "b", "c")) {
        writer.add(name, bytes, 0);
      }
      writer.commit();
    }
    String part = ArchiveLayout.part(0);
    CorruptionSweep.FileAccess objects = CorruptionSweep.hadoop(fs, archive);
    byte[] whole = objects.read(part);
    EntryStatus c;
    try (HpfReader reader = HpfReader.open(fs, archive, ReaderOptions.defaults())) {
      c = reader.stat("c");
    }
    objects.replace(part, Arrays.copyOf(whole, (int) c.partOffset() + 100));

    try (HpfReader reader = HpfReader.open(fs, archive, ReaderOptions.defaults())) {
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> reader.get("c"));
      assertEquals("'c' in " + reader.location() + ": its entry at offset " + c.partOffset()
          + " of " + part + " runs past the end of the part: the part is shorter than the "
          + whole.length + " bytes the archive records: it is truncated", e.getMessage());
      assertArrayEquals(bytes, reader.get("a"));
    }
    fs.delete(archive, true);
  }

  private static org.apache.hadoop.fs.Path archive(String name) throws IOException {
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path(
        S3Server.shared().bucket("hpf-classic-stream"), "corruption/" + name);
    archive.getFileSystem(conf).delete(archive, true);
    return archive;
  }
}
