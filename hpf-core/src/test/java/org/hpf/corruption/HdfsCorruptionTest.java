package org.hpf.corruption;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The corruption sweep, reduced, on a MiniDFSCluster: a smaller archive of three generations
 * (create, append with replace, delete), four truncations and four flips per file (aimed at the
 * header, the footer and the regions of each kind of file). HDFS files
 * cannot be rewritten in place, so each damage deletes the file and creates it again with the
 * modified bytes (same replication and block size).
 */
@Tag("hdfs")
class HdfsCorruptionTest {
  @TempDir Path tmp;

  @Test
  void everyDamageIsReportedOrHarmlessOnHdfs() throws Exception {
    long seed = LocalCorruptionTest.seed();
    MiniDfs dfs = MiniDfs.shared();
    Configuration conf = dfs.configuration();
    FileSystem fs = dfs.fileSystem();
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path("/corruption/a.hpf");
    fs.delete(archive, true);
    // Sources on the local file system, archive on HDFS. 81 base records, then 12 (8 new, 4
    // replaced) and 2 deletions: three layers.
    CorruptionSweep.Model model = CorruptionSweep.build(conf, tmp, archive, 80, 8, 4, 2, 32,
        128 * 1024, 20240602L);
    // Each index read asks the DataNodes.
    new CorruptionSweep(fs, archive, CorruptionSweep.hadoop(fs, archive),
        CorruptionSweep.Truncations.SEEN_AT_OPEN)
        .cachingRecords()
        .sweepReduced(model, 4, seed);
    fs.delete(archive, true);
  }
}
