package org.hpf;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.hpf.read.HpfReader;
import org.hpf.write.ArchiveCreator;
import org.hpf.write.CreateResult;
import org.hpf.write.WriterOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmokeTest {
  @TempDir Path tmp;

  @Test
  void roundTrip() throws Exception {
    Path src = tmp.resolve("src");
    Random random = new Random(1);
    for (int i = 0; i < 500; i++) {
      Path f = src.resolve("d" + (i % 7) + "/f" + i + ".txt");
      Files.createDirectories(f.getParent());
      byte[] b = new byte[random.nextInt(5000)];
      if (i % 2 == 0) random.nextBytes(b); else java.util.Arrays.fill(b, (byte) 'a');
      Files.write(f, b);
    }
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path(tmp.resolve("a.hpf").toUri());
    CreateResult r = ArchiveCreator.create(conf, archive,
        List.of(new org.apache.hadoop.fs.Path(src.toUri())),
        WriterOptions.builder().bucketCapacity(100).partSize(200_000).build());
    System.out.println(r);
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      for (int i = 0; i < 500; i++) {
        String name = "d" + (i % 7) + "/f" + i + ".txt";
        assertArrayEquals(Files.readAllBytes(src.resolve(name)), reader.get(name), name);
      }
      assertThrows(FileNotInArchiveException.class, () -> reader.get("nope"));
      try (var names = reader.list()) {
        assertEquals(500, names.count());
      }
    }
  }
}
