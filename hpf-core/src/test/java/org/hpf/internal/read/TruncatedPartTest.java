package org.hpf.internal.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a member of a part file cut short names the member, the archive and the part. */
class TruncatedPartTest {
  @TempDir java.nio.file.Path tmp;

  @Test
  void theErrorNamesTheMemberAndWhereItsEntryStarts() throws IOException {
    TreeMap<String, byte[]> files = new TreeMap<>();
    Random random = new Random(7);
    for (int i = 0; i < 20; i++) {
      byte[] bytes = new byte[1000 + random.nextInt(1000)];
      random.nextBytes(bytes);
      files.put("a/f" + i + ".bin", bytes);
      Files.createDirectories(tmp.resolve("src/a"));
      Files.write(tmp.resolve("src/a/f" + i + ".bin"), bytes);
    }
    Configuration conf = new Configuration();
    Path archive = new Path(tmp.resolve("x.hpf").toUri());
    ArchiveCreator.create(conf, archive, List.of(new Path(tmp.resolve("src").toUri())),
        WriterOptions.builder().settings(s -> s.threads(1)).build());

    // Cut the part in the middle of some member's entry.
    String cutMember;
    long cutOffset;
    long before;
    String intactMember;
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      List<EntryStatus> byOffset = files.keySet().stream().map(name -> stat(reader, name))
          .filter(s -> s.part() == 0)
          .sorted(java.util.Comparator.comparingLong(EntryStatus::partOffset)).toList();
      EntryStatus cut = byOffset.get(byOffset.size() / 2);
      cutMember = cut.name();
      cutOffset = cut.partOffset();
      intactMember = byOffset.get(0).name();
      before = cutOffset + 10;
    }
    java.nio.file.Path part = tmp.resolve("x.hpf").resolve(ArchiveLayout.part(0));
    try (RandomAccessFile file = new RandomAccessFile(part.toFile(), "rw")) {
      file.setLength(before);
    }

    try (HpfReader reader = HpfReader.open(conf, archive)) {
      String location = reader.location();
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> reader.get(cutMember));
      assertEquals("'" + cutMember + "' in " + location + ": its entry at offset " + cutOffset
          + " of " + ArchiveLayout.part(0) + " runs past the end of the part (" + before
          + " bytes): the part is truncated", e.getMessage());
      e = assertThrows(CorruptArchiveException.class, () -> reader.open(cutMember));
      assertTrue(e.getMessage().startsWith("'" + cutMember + "' in " + location + ": "),
          e.getMessage());
      // A member before the cut still cannot be read from the damaged part, and says why.
      e = assertThrows(CorruptArchiveException.class, () -> reader.get(intactMember));
      assertTrue(e.getMessage().startsWith("'" + intactMember + "' in " + location + ": "),
          e.getMessage());
      assertTrue(e.getMessage().contains("the part is truncated (" + before + " bytes"),
          e.getMessage());
    }
  }

  @Test
  void aPartCutAfterTheReaderOpenedItNamesTheMemberAndItsEntry() throws IOException {
    Random random = new Random(11);
    Files.createDirectories(tmp.resolve("src"));
    byte[] small = new byte[3000];
    random.nextBytes(small);
    byte[] large = new byte[(3 << 20) + 17];
    random.nextBytes(large);
    Files.write(tmp.resolve("src/a.bin"), small);
    Files.write(tmp.resolve("src/b.bin"), large);
    Files.write(tmp.resolve("src/c.bin"), small);
    Configuration conf = new Configuration();
    Path archive = new Path(tmp.resolve("y.hpf").toUri());
    ArchiveCreator.create(conf, archive, List.of(new Path(tmp.resolve("src").toUri())),
        WriterOptions.builder().settings(s -> s.threads(1).compression(org.hpf.Compression.NONE))
            .build());
    java.nio.file.Path part = tmp.resolve("y.hpf").resolve(ArchiveLayout.part(0));

    try (HpfReader reader = HpfReader.open(conf, archive)) {
      String location = reader.location();
      EntryStatus a = reader.stat("a.bin");
      EntryStatus b = reader.stat("b.bin");
      EntryStatus c = reader.stat("c.bin");
      assertTrue(a.partOffset() < b.partOffset() && b.partOffset() < c.partOffset());
      java.io.InputStream stream = reader.open("b.bin");
      byte[] first = stream.readNBytes(1 << 16);
      assertEquals(java.nio.ByteBuffer.wrap(large, 0, 1 << 16), java.nio.ByteBuffer.wrap(first));
      // The part is cut inside b's stored bytes while the reader (and a stream) hold it open.
      try (RandomAccessFile file = new RandomAccessFile(part.toFile(), "rw")) {
        file.setLength(b.partOffset() + (2 << 20));
      }

      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> reader.get("c.bin"));
      assertEquals("'c.bin' in " + location + ": its entry at offset " + c.partOffset()
          + " of " + ArchiveLayout.part(0) + " runs past the end of the part: the part was"
          + " truncated after this reader opened it", e.getMessage());
      // stat answers from the index, which the cut did not touch.
      assertEquals(c, reader.stat("c.bin"));
      e = assertThrows(CorruptArchiveException.class, () -> stream.readAllBytes());
      assertEquals("'b.bin' in " + location + ": its entry at offset " + b.partOffset()
          + " of " + ArchiveLayout.part(0) + " runs past the end of the part: the part was"
          + " truncated after this reader opened it", e.getMessage());
      assertEquals(1, e.getMessage().lines().count());
      // A member wholly before the cut is still read, and checked.
      assertEquals(java.nio.ByteBuffer.wrap(small), java.nio.ByteBuffer.wrap(reader.get("a.bin")));
    }
  }

  private static EntryStatus stat(HpfReader reader, String name) {
    try {
      return reader.stat(name);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
