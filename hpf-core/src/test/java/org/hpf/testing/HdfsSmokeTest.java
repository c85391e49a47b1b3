package org.hpf.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.read.HpfReader;
import org.hpf.write.ArchiveCreator;
import org.hpf.write.WriterOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("hdfs")
class HdfsSmokeTest {
  @Test
  void roundTripOnHdfs() throws Exception {
    MiniDfs dfs = MiniDfs.shared();
    Configuration conf = dfs.configuration();
    FileSystem fs = dfs.fileSystem();
    long t0 = System.nanoTime();
    for (int i = 0; i < 50; i++) {
      try (FSDataOutputStream out = fs.create(new Path("/smoke/src/f" + i))) {
        out.write(("file " + i).getBytes(StandardCharsets.UTF_8));
      }
    }
    System.out.println("50 uploads: " + (System.nanoTime() - t0) / 1_000_000 + " ms");
    Path archive = new Path("/smoke/a.hpf");
    System.out.println(ArchiveCreator.create(conf, archive, List.of(new Path("/smoke/src")),
        WriterOptions.defaults()));
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      for (int i = 0; i < 50; i++) {
        assertArrayEquals(("file " + i).getBytes(StandardCharsets.UTF_8), reader.get("f" + i));
      }
    }
  }
}
