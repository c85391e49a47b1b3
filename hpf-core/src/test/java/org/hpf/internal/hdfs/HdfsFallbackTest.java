package org.hpf.internal.hdfs;

import org.hpf.WriteSettings;
import static org.hpf.internal.hdfs.HdfsTesting.assertArchive;
import static org.hpf.internal.hdfs.HdfsTesting.local;
import static org.hpf.internal.hdfs.HdfsTesting.parts;
import static org.hpf.internal.hdfs.HdfsTesting.ramDiskReplicasPerBlock;
import static org.hpf.internal.hdfs.HdfsTesting.writeSources;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.CreateResult;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster without RAM_DISK volumes and without locked memory (the shared MiniDFSCluster): asked
 * for LazyPersist and cache pinning, a create writes a correct archive with ordinary parts and
 * reports both fallbacks.
 */
@Tag("hdfs")
class HdfsFallbackTest {
  @TempDir
  File sources;

  @Test
  void withoutRamDiskOrLockedMemoryTheArchiveIsPlainAndTheReportSaysWhy() throws IOException {
    MiniDfs dfs = MiniDfs.shared();
    DistributedFileSystem fs = dfs.fileSystem();
    Configuration conf = dfs.configuration();
    Map<String, byte[]> files = writeSources(sources, "fb", 200, 100, 20_000, 11);
    Path archive = fs.makeQualified(new Path("/fallback/plain.hpf"));
    WriterOptions options = WriterOptions.builder()
        .settings(s -> s.partStoragePolicy((true) ? org.hpf.WriteSettings.LAZY_PERSIST : null)
        .cachePool("hpf-fallback")).layout(l -> l.withBlockSize(1 << 20).withPartSize(2 << 20))
        .build();
    CreateResult created = ArchiveCreator.create(conf, archive, List.of(local(sources)),
        options);

    HdfsReport report = created.hdfs();
    assertTrue(report.distributed());
    HdfsReport.Parts parts = report.parts();
    assertEquals(WriteSettings.LAZY_PERSIST, parts.requestedPolicy());
    assertNull(parts.appliedPolicy(), report.describe());
    assertTrue(parts.fallback().contains("landed on DISK"), parts.fallback());
    assertEquals(0, parts.blocksInRamDisk());
    for (Path part : parts(fs, archive)) {
      assertEquals("HOT", fs.getStoragePolicy(part).getName(), part.toString());
    }
    for (int ram : ramDiskReplicasPerBlock(fs, parts(fs, archive))) {
      assertEquals(0, ram);
    }
    HdfsReport.Pinning pinning = report.pinning();
    // The manifest (with the directory) and the index files: directives are added anyway.
    assertEquals(created.buckets() + 1, pinning.filesPinned(), "directives are added anyway");
    assertTrue(pinning.skipped().contains("no memory for caching"), pinning.skipped());
    assertTrue(report.warnings().stream().anyMatch(w -> w.contains("LAZY_PERSIST was asked")),
        report.warnings().toString());
    assertTrue(report.warnings().stream().anyMatch(w -> w.contains("no memory for caching")),
        report.warnings().toString());
    assertArchive(conf, archive, files);
    assertEquals(pinning.filesPinned(), CachePinning.unpin(fs, archive, "hpf-fallback"));
  }
}
