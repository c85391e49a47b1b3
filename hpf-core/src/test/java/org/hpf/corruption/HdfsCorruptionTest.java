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
 * The corruption sweep, reduced, on a MiniDFSCluster: a smaller archive, four truncations and a
 * few flips per file. HDFS files cannot be rewritten in place, so each damage deletes the file
 * and creates it again with the modified bytes (same replication and block size).
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
    Path sources = tmp.resolve("src");
    CorruptionSweep.writeSources(sources, 80, 20240602L, true);
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path("/corruption/a.hpf");
    fs.delete(archive, true);
    // Sources on the local file system, archive on HDFS.
    CorruptionSweep.create(conf, sources, archive, 32, 64 * 1024);
    CorruptionSweep sweep =
        new CorruptionSweep(fs, archive, CorruptionSweep.hadoop(fs, archive));
    sweep.learn(sources);
    sweep.checkUndamaged();
    List<String> files = sweep.files();
    System.out.println(files.size() + " files, " + sweep.members().size() + " members, "
        + sweep.partCount() + " parts, " + sweep.bucketCount() + " buckets: " + files);
    assertTrue(sweep.partCount() >= 2, "parts: " + sweep.partCount());
    assertTrue(sweep.bucketCount() >= 2, "buckets: " + sweep.bucketCount());
    assertTrue(sweep.failures().isEmpty(), String.join("\n", sweep.failures()));

    sweep.sweep(files, 5, false, seed);
    System.out.println(sweep.summary() + " in " + (System.nanoTime() - start) / 1_000_000
        + " ms");
    assertTrue(sweep.failures().isEmpty(), "seed " + seed + ": " + sweep.summary() + "\n"
        + String.join("\n", sweep.failures()));
    fs.delete(archive, true);
  }
}
