package org.hpf.read;

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
import org.hpf.format.ArchiveLayout;
import org.hpf.write.ArchiveCreator;
import org.hpf.write.WriterOptions;
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
        WriterOptions.builder().threads(1).build());

    // Cut the part in the middle of some member's entry.
    String cutMember;
    long cutOffset;
    long before;
    String intactMember;
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      List<MemberStatus> byOffset = files.keySet().stream().map(name -> stat(reader, name))
          .filter(s -> s.part() == 0)
          .sorted(java.util.Comparator.comparingLong(MemberStatus::partOffset)).toList();
      MemberStatus cut = byOffset.get(byOffset.size() / 2);
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

  private static MemberStatus stat(HpfReader reader, String name) {
    try {
      return reader.stat(name);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
