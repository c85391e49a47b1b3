package org.hpf.fs;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.tools.DistCp;
import org.apache.hadoop.util.ToolRunner;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hadoop's distcp, unmodified, copies a directory out of an archive on HDFS
 * ({@code hpf://hdfs-<namenode>/...}) to a plain HDFS directory: byte-identical files, each
 * checked by distcp against the archive's stored CRC32C (file-level COMPOSITE_CRC checksums).
 */
@Tag("hdfs")
@Tag("slow")
class DistCpTest {
  @TempDir java.nio.file.Path tmp;

  @Test
  void restoresFilesByteIdentical() throws Exception {
    MiniDfs dfs = MiniDfs.shared();
    Configuration conf = LocalJobs.configure(dfs.configuration());
    // File-level CRCs on both sides: distcp compares the archive's CRC32C with HDFS's.
    conf.set("dfs.checksum.combine.mode", "COMPOSITE_CRC");
    // A client reads that mode when it starts: bypass the cached client of the shared cluster,
    // as a distcp process started with -Ddfs.checksum.combine.mode=COMPOSITE_CRC would.
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    SourceTree tree = new SourceTree(tmp.resolve("src"), 3, 25);
    FileSystem hdfs = FileSystem.newInstance(dfs.fileSystem().getUri(), conf);
    Path archive = hdfs.makeQualified(new Path("/distcp/source.hpf"));
    ArchiveCreator.create(conf, archive, List.of(new Path(tree.root.toUri())),
        WriterOptions.builder().settings(s -> s.threads(2)).layout(l -> l.withBlockSize(1 << 20))
            .build());
    String namenode = archive.toUri().getAuthority();
    Path source = new Path("hpf://hdfs-" + namenode + "/distcp/source.hpf");
    Path target = hdfs.makeQualified(new Path("/distcp/restored"));

    int code = ToolRunner.run(conf, new DistCp(conf, null),
        new String[] {"-m", "2", source.toString(), target.toString()});
    assertEquals(0, code);

    FileSystem hpf = source.getFileSystem(conf);
    for (Map.Entry<String, byte[]> e : tree.files.entrySet()) {
      Path copy = new Path(target, e.getKey());
      try (FSDataInputStream in = hdfs.open(copy)) {
        assertArrayEquals(e.getValue(), in.readAllBytes(), e.getKey());
      }
      if (e.getValue().length > 0) {
        assertEquals(hpf.getFileChecksum(new Path(source, e.getKey())),
            hdfs.getFileChecksum(copy), e.getKey());
      }
    }
    assertEquals(tree.files.size(), hdfs.getContentSummary(target).getFileCount());
    hdfs.close();
  }

  @Test
  void mapsToTheNamenode() throws IOException {
    MiniDfs dfs = MiniDfs.shared();
    String namenode = dfs.fileSystem().getUri().getAuthority();
    FileSystem hpf = new Path("hpf://hdfs-" + namenode + "/").getFileSystem(dfs.configuration());
    assertEquals(dfs.fileSystem().getUri(),
        ((HpfFileSystem) hpf).getUnderlyingFileSystem().getUri());
  }
}
