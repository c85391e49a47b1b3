package org.hpf.internal.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.FileNotInArchiveException;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.RandomFiles;
import org.hpf.testing.ReadCountingStorage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With the record cache, a warm get of a cached member reads its entry and nothing else. */
class RecordCacheTest {
  @TempDir java.nio.file.Path tmp;
  private TreeMap<String, byte[]> files;
  private ReadCountingStorage storage;
  private Path archive;
  private FileSystem fs;

  @BeforeEach
  void createArchive() throws IOException {
    files = RandomFiles.archive(tmp, "r.hpf", "m", 400, 500, 5,
        WriterOptions.builder().settings(s -> s.threads(1)).layout(l -> l.withBucketCapacity(50))
            .build());
    archive = new Path(tmp.resolve("r.hpf").toUri());
    fs = archive.getFileSystem(new Configuration());
  }

  private HpfReader open(long cacheBytes) throws IOException {
    storage = new ReadCountingStorage(HdfsIntegration.storage(fs, archive));
    // Records held whole (ResidentRecordsTest) would hide what the cache does.
    return HpfReader.open(storage, ReaderOptions.defaults().withRecordCacheBytes(cacheBytes)
        .withIndexMemoryBytes(0));
  }

  private long reads(String kind) {
    return storage.reads(kind);
  }

  private void getAll(HpfReader reader) throws IOException {
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
    }
  }

  @Test
  void aWarmGetOfACachedMemberReadsOnlyItsEntry() throws IOException {
    try (HpfReader reader = open(1 << 20)) {
      getAll(reader);
      long indexReads = reads("index");
      long partReads = reads("part");
      assertTrue(indexReads >= files.size(), "the first pass reads every record");
      getAll(reader);
      assertEquals(indexReads, reads("index"), "the second pass read index files");
      assertEquals(partReads + files.size(), reads("part"), "one entry read per get");
      RecordCacheStats stats = reader.recordCacheStats();
      assertEquals(files.size(), stats.records());
      assertEquals(files.size(), stats.hits());
      assertEquals(files.size() * (long) RecordCache.BYTES_PER_RECORD, stats.bytes());
      assertTrue(stats.bytes() <= stats.budgetBytes());
      // A name not in the archive is still not found, cache or not.
      assertThrows(FileNotInArchiveException.class, () -> reader.get("not-a-member"));
    }
  }

  @Test
  void withoutTheCacheEveryGetReadsItsRecord() throws IOException {
    try (HpfReader reader = open(0)) {
      getAll(reader);
      long indexReads = reads("index");
      getAll(reader);
      assertEquals(indexReads + files.size(), reads("index"));
      assertEquals(new RecordCacheStats(0, 0, 0, 0, 0), reader.recordCacheStats());
    }
  }

  @Test
  void theCacheStaysWithinItsBudget() throws IOException {
    int fits = 30;
    try (HpfReader reader = open((long) fits * RecordCache.BYTES_PER_RECORD)) {
      getAll(reader);
      getAll(reader);
      RecordCacheStats stats = reader.recordCacheStats();
      assertTrue(stats.records() <= fits, stats.toString());
      assertTrue(stats.bytes() <= stats.budgetBytes(), stats.toString());
    }
  }
}
