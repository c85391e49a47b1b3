package org.hpf.corruption;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.testing.MemoryTempDirs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Corruption sweep on the local file system: an archive of three generations (a create of ~300
 * members in several parts and buckets, an append with replace, a delete), so that it has three
 * index layers (two fingerprinted, one with tombstones) and three names segments. Every file is
 * truncated at several points and has single bits flipped (aimed at each region, then at random
 * offsets); the manifest and every directory have every bit flipped, every byte of a
 * tombstone and every fingerprint of its bucket one bit; after each damage every member and
 * non-member is read (see {@link CorruptionSweep} for the rules).
 *
 * <p>The flip offsets are random: the seed is printed, and {@code -Dhpf.corruption.seed=N}
 * replays a run.
 */
class LocalCorruptionTest {
  @TempDir(factory = MemoryTempDirs.class) Path tmp;

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
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path(tmp.resolve("a.hpf").toUri());
    // 301 base records; the append's 48 records (40 new, 8 replaced) and the delete's 10 are
    // each fewer than a quarter of the layer below: three layers, three names segments.
    CorruptionSweep.Model model = CorruptionSweep.build(conf, tmp, archive, 300, 40, 8, 10, 48,
        96 * 1024, 20240601L);
    FileSystem fs = archive.getFileSystem(conf);
    CorruptionSweep sweep =
        new CorruptionSweep(fs, archive, CorruptionSweep.local(tmp.resolve("a.hpf")),
            CorruptionSweep.Truncations.SEEN_AT_OPEN);
    sweep.learn(model);
    sweep.checkUndamaged();
    List<String> files = sweep.files();
    System.out.println(sweep.describeArchive());
    assertTrue(sweep.partCount() >= 3, "parts: " + sweep.partCount());
    assertTrue(sweep.partsWithDeadEntries() >= 1, "parts with dead entries");
    assertTrue(sweep.bucketCount() >= 3, "index files: " + sweep.bucketCount());
    assertTrue(sweep.layerCount() == 3, "index layers: " + sweep.layerCount());
    assertTrue(sweep.deltaIndexFiles() >= 2, "fingerprinted index files");
    assertTrue(sweep.tombstones() == 10, "tombstones: " + sweep.tombstones());
    assertTrue(sweep.namesSegmentCount() == 3, "names segments: " + sweep.namesSegmentCount());
    assertTrue(files.stream().filter(f -> f.startsWith("_manifests/")).count() == 2,
        "the newest two manifests are kept: " + files);
    assertTrue(sweep.failures().isEmpty(), String.join("\n", sweep.failures()));

    long phase = System.nanoTime();
    sweep.sweep(files, 24, true, seed);
    System.out.println("sweep of every file: " + (System.nanoTime() - phase) / 1_000_000 + " ms");
    phase = System.nanoTime();
    sweep.flipEveryBitOfManifestAndDirectories();
    System.out.println("every bit of manifest and directories: "
        + (System.nanoTime() - phase) / 1_000_000 + " ms");
    phase = System.nanoTime();
    sweep.flipChunkChecksumBits(seed);
    System.out.println("chunk checksums: " + (System.nanoTime() - phase) / 1_000_000 + " ms");
    phase = System.nanoTime();
    sweep.flipTombstoneAndFingerprintBits(seed);
    System.out.println("tombstone and fingerprints: " + (System.nanoTime() - phase) / 1_000_000
        + " ms");
    System.out.println(sweep.summary() + " in " + (System.nanoTime() - start) / 1_000_000
        + " ms");
    assertTrue(sweep.failures().isEmpty(), "seed " + seed + ": " + sweep.summary() + "\n"
        + String.join("\n", sweep.failures()));
  }
}
