package org.hpf.battery;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.Path;
import org.hpf.InvalidNameException;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The battery on a MiniDFSCluster of 3 DataNodes: archives on HDFS; sources mostly local (faster
 * to write), on HDFS in {@code roundTripWithSourcesOnTheArchiveFileSystem} and below.
 */
@Tag("hdfs")
class HdfsArchiveTest extends ArchiveBattery {
  HdfsArchiveTest() {
    super(hdfs("battery"));
  }

  /** Sources on HDFS and on the local file system in one archive. */
  @Test
  void sourcesOnHdfsAndLocalTogether() throws IOException {
    Random r = random();
    TestTree onHdfs = new TestTree();
    TestTree local = new TestTree();
    TestTree all = new TestTree();
    for (int i = 0; i < 30; i++) {
      TestTree side = i % 2 == 0 ? onHdfs : local;
      String name = (i % 2 == 0 ? "hdfs/" : "local/") + TestTree.name(r, 1 + r.nextInt(3));
      byte[] bytes = TestTree.content(r, r.nextInt(3000));
      long mtime = TestTree.mtime(r);
      if (side.add(name, bytes, mtime)) {
        all.addOrFail(name, bytes, mtime);
      }
    }
    Path hdfsRoot = sourcesOnArchiveFs(onHdfs, "mixed");
    Path localRoot = localSources(local, "mixed");
    Path archive = archivePath("mixed");
    create(archive, List.of(hdfsRoot, localRoot), WriterOptions.defaults());
    verify(archive, all);
  }

  /**
   * A name over 4096 UTF-8 bytes (possible on HDFS, whose paths may be 8000 long, not on a local
   * file system): InvalidNameException before anything is written.
   */
  @Test
  void nameLongerThanTheFormatAllows() throws IOException {
    Random r = random();
    StringBuilder name = new StringBuilder();
    for (int i = 0; i < 18; i++) {
      name.append(i == 0 ? "" : "/").append(String.valueOf((char) ('a' + i)).repeat(240));
    }
    TestTree tree = new TestTree();
    tree.addOrFail(name.toString(), TestTree.content(r, 10), TestTree.mtime(r));
    tree.addOrFail("fine", TestTree.content(r, 10), TestTree.mtime(r));
    Path sources = sourcesOnArchiveFs(tree, "long");
    Path archive = archivePath("long");
    InvalidNameException e = assertThrows(InvalidNameException.class,
        () -> create(archive, sources, WriterOptions.defaults()));
    assertTrue(e.getMessage().contains("4096"), e.getMessage());
    assertNoArchive(archive);
  }
}
