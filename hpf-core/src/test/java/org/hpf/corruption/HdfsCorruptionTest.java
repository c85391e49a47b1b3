package org.hpf.corruption;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
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
    long start = System.nanoTime();
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path("/corruption/a.hpf");
    fs.delete(archive, true);
    // Sources on the local file system, archive on HDFS. 81 base records, then 12 (8 new, 4
    // replaced) and 2 deletions: three layers.
    CorruptionSweep.Model model = CorruptionSweep.build(conf, tmp, archive, 80, 8, 4, 2, 32,
        128 * 1024, 20240602L);
    CorruptionSweep sweep =
        new CorruptionSweep(fs, archive, CorruptionSweep.hadoop(fs, archive));
    sweep.learn(model);
    sweep.checkUndamaged();
    List<String> files = sweep.files();
    System.out.println(sweep.describeArchive());
    assertTrue(sweep.partCount() >= 2, "parts: " + sweep.partCount());
    assertTrue(sweep.bucketCount() >= 2, "index files: " + sweep.bucketCount());
    assertTrue(sweep.layerCount() == 3, "index layers: " + sweep.layerCount());
    assertTrue(sweep.tombstones() == 2, "tombstones: " + sweep.tombstones());
    assertTrue(sweep.namesSegmentCount() >= 2, "names segments: " + sweep.namesSegmentCount());
    assertTrue(sweep.failures().isEmpty(), String.join("\n", sweep.failures()));

    sweep.sweep(files, 4, false, seed);
    System.out.println(sweep.summary() + " in " + (System.nanoTime() - start) / 1_000_000
        + " ms");
    assertTrue(sweep.failures().isEmpty(), "seed " + seed + ": " + sweep.summary() + "\n"
        + String.join("\n", sweep.failures()));
    fs.delete(archive, true);
  }
}
