package org.hpf.corruption;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Corruption sweep on the local file system: every file of a ~300-member archive (several parts,
 * several buckets) is truncated at several points and has single bits flipped at random offsets;
 * after each damage every member is read (see {@link CorruptionSweep} for the rules).
 *
 * <p>The flip offsets are random: the seed is printed, and {@code -Dhpf.corruption.seed=N}
 * replays a run.
 */
class LocalCorruptionTest {
  @TempDir Path tmp;

  static long seed() {
    String fixed = System.getProperty("hpf.corruption.seed");
    long seed = fixed != null ? Long.parseLong(fixed) : System.nanoTime();
    System.out.println("corruption sweep seed: " + seed + " (replay: -Dhpf.corruption.seed="
        + seed + ")");
    return seed;
  }

  @Test
  void everyDamageIsReportedOrHarmless() throws Exception {
    long seed = seed();
    long start = System.nanoTime();
    Path sources = tmp.resolve("src");
    CorruptionSweep.writeSources(sources, 300, 20240601L, true);
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path(tmp.resolve("a.hpf").toUri());
    CorruptionSweep.create(conf, sources, archive, 48, 96 * 1024);
    FileSystem fs = archive.getFileSystem(conf);
    CorruptionSweep sweep =
        new CorruptionSweep(fs, archive, CorruptionSweep.local(tmp.resolve("a.hpf")));
    sweep.learn(sources);
    sweep.checkUndamaged();
    List<String> files = sweep.files();
    System.out.println(files.size() + " files, " + sweep.members().size() + " members, "
        + sweep.partCount() + " parts, " + sweep.bucketCount() + " buckets: " + files);
    assertTrue(sweep.partCount() >= 3, "parts: " + sweep.partCount());
    assertTrue(sweep.bucketCount() >= 3, "buckets: " + sweep.bucketCount());
    assertTrue(sweep.failures().isEmpty(), String.join("\n", sweep.failures()));

    sweep.sweep(files, 24, true, seed);
    sweep.flipEveryBitOfManifestAndDirectory();
    System.out.println(sweep.summary() + " in " + (System.nanoTime() - start) / 1_000_000
        + " ms");
    assertTrue(sweep.failures().isEmpty(), "seed " + seed + ": " + sweep.summary() + "\n"
        + String.join("\n", sweep.failures()));
  }
}
