package org.hpf;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.hpf.read.HpfReader;
import org.hpf.write.ArchiveCreator;
import org.hpf.write.ArchiveWriter;
import org.hpf.write.ChangeResult;
import org.hpf.write.WriterOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MutationSmokeTest {
  @TempDir Path tmp;

  private static org.apache.hadoop.fs.Path hp(Path p) {
    return new org.apache.hadoop.fs.Path(p.toUri());
  }

  private void write(Path root, String name, String content) throws Exception {
    Path f = root.resolve(name);
    Files.createDirectories(f.getParent());
    Files.writeString(f, content);
  }

  @Test
  void appendDeleteCompact() throws Exception {
    Configuration conf = new Configuration();
    Path a = tmp.resolve("a");
    for (int i = 0; i < 300; i++) write(a, "x/f" + i, "first " + i + " ".repeat(i));
    org.apache.hadoop.fs.Path archive = hp(tmp.resolve("ar.hpf"));
    WriterOptions options = WriterOptions.builder().bucketCapacity(40).partSize(20_000).build();
    ArchiveCreator.create(conf, archive, List.of(hp(a)), options);
    HpfReader old = HpfReader.open(conf, archive);
    Path b = tmp.resolve("b");
    for (int i = 0; i < 100; i++) write(b, "y/g" + i, "second " + i);
    write(b, "x/f7", "replaced");
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, options)) {
      assertThrows(NameExistsException.class, () -> writer.append(List.of(hp(b)), false));
      ChangeResult r = writer.append(List.of(hp(b)), true);
      System.out.println(r);
      assertEquals(400, r.fileCount());
      // The reader opened before the append still reads its generation...
      assertEquals("first 7 " + " ".repeat(6), new String(old.get("x/f7"), StandardCharsets.UTF_8));
      System.out.println(writer.delete(List.of("x/f1", "x/f2", "y/g3")));
      assertThrows(FileNotInArchiveException.class, () -> writer.delete(List.of("nope")));
    }
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      assertEquals("replaced", new String(reader.get("x/f7"), StandardCharsets.UTF_8));
      assertFalse(reader.exists("x/f1"));
      assertEquals("second 5", new String(reader.get("y/g5"), StandardCharsets.UTF_8));
      try (var names = reader.list()) {
        List<String> all = names.toList();
        assertEquals(397, all.size());
        assertFalse(all.contains("x/f2"));
      }
      assertEquals(397, reader.manifest().fileCount());
    }
    // ...and once two newer generations exist, it returns its generation's bytes or a typed error.
    for (int i = 0; i < 300; i++) {
      try {
        assertEquals("first " + i + " ".repeat(i), new String(old.get("x/f" + i), StandardCharsets.UTF_8));
      } catch (StaleGenerationException expected) {
        // its files are gone: the documented outcome
      }
    }
    old.close();
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, options)) {
      for (int i = 0; i < 250; i++) writer.delete(List.of("x/f" + (i + 10)));
      ChangeResult r = writer.compact(0.5);
      System.out.println("compact " + r);
      assertTrue(r.partsRemoved() > 0);
    }
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      for (int i = 260; i < 300; i++) {
        assertEquals("first " + i + " ".repeat(i), new String(reader.get("x/f" + i), StandardCharsets.UTF_8));
      }
      try (var names = reader.list()) {
        assertEquals(147, names.count());
      }
      System.out.println(reader.manifest());
    }
  }
}
