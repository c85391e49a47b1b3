package org.hpf.internal.hdfs;

import org.hpf.WriteSettings;
import static org.hpf.internal.hdfs.HdfsTesting.local;
import static org.hpf.internal.hdfs.HdfsTesting.writeSources;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.ChangeResult;
import org.hpf.internal.write.CreateResult;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HDFS settings of a writer and what happens off HDFS; no cluster. */
class HdfsSettingsTest {
  private static final long MIB = 1 << 20;

  @TempDir
  File dir;

  @Test
  void partBlocksFollowTheClusterWithinTwoToEightPerPart() {
    assertEquals(128 * MIB, HdfsStorage.partBlockSize(128 * MIB, 1024 * MIB));
    assertEquals(128 * MIB, HdfsStorage.partBlockSize(64 * MIB, 1024 * MIB), "raised to 1/8");
    assertEquals(256 * MIB, HdfsStorage.partBlockSize(256 * MIB, 1024 * MIB));
    assertEquals(512 * MIB, HdfsStorage.partBlockSize(1024 * MIB, 1024 * MIB), "lowered to 1/2");
    assertEquals(128 * MIB, HdfsStorage.partBlockSize(128 * MIB, 0), "readers: the cluster's");
    assertEquals(MIB, HdfsStorage.partBlockSize(4096, 3 * MIB), "at least 1 MiB");
    assertEquals(2 * MIB, HdfsStorage.partBlockSize(128 * MIB, 4 * MIB));
    assertEquals(600 * MIB, HdfsStorage.partBlockSize(600 * MIB + 12345, 2048 * MIB),
        "whole MiB");
  }

  @Test
  void builderChecksAndNormalizes() {
    WriteSettings options = WriteSettings.builder().partStoragePolicy(" lazy_persist ")
        .cachePool("p").cacheTtl(Duration.ofHours(1)).cacheReplication(2).build();
    assertTrue(options.lazyPersist());
    assertEquals(2, options.cacheReplication());
    assertNull(WriteSettings.defaults().partStoragePolicy());
    assertTrue(WriteSettings.defaults().pinIndex());
    assertEquals("hpf-{owner}", WriteSettings.defaults().cachePool());
    assertThrows(IllegalArgumentException.class, () -> WriteSettings.builder().cachePool(" "));
    assertThrows(IllegalArgumentException.class,
        () -> WriteSettings.builder().cacheTtl(Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> WriteSettings.builder().cacheReplication(0));
    assertEquals(WriteSettings.defaults().toString(),
        WriterOptions.defaults().settings().toString());
  }

  /** On the local file system everything HDFS is skipped, and the results say so. */
  @Test
  void offHdfsTheReportSaysSkipped() throws IOException {
    File sources = new File(dir, "src");
    Map<String, byte[]> files = writeSources(sources, "local", 30, 10, 3_000, 12);
    Path archive = local(new File(dir, "a.hpf"));
    Configuration conf = new Configuration();
    WriterOptions options = WriterOptions.builder()
        .settings(s -> s.partStoragePolicy((true) ? org.hpf.WriteSettings.LAZY_PERSIST : null))
        .build();
    CreateResult created = ArchiveCreator.create(conf, archive, List.of(local(sources)),
        options);
    assertTrue(created.hdfs().skipped());
    assertTrue(created.hdfs().skipReason().contains("not on HDFS"), created.hdfs().skipReason());
    assertTrue(created.hdfs().describe().startsWith("HDFS features skipped"));
    File more = new File(dir, "more");
    writeSources(more, "more", 5, 10, 100, 13);
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, options)) {
      ChangeResult appended = writer.append(List.of(local(more)), false);
      assertTrue(appended.hdfs().skipped());
    }
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      String name = files.keySet().iterator().next();
      BlockLocation[] blocks = reader.blockLocations(name);
      assertEquals(1, blocks.length);
      assertEquals(0, blocks[0].getOffset());
      assertEquals(reader.record(name).entryLength(), blocks[0].getLength());
    }
  }
}
