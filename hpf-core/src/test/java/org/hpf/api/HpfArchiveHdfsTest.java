package org.hpf.api;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.Path;
import org.hpf.ArchiveReader;
import org.hpf.ArchiveSettings;
import org.hpf.ArchiveWriter;
import org.hpf.CommitResult;
import org.hpf.FileNotInArchiveException;
import org.hpf.HpfArchive;
import org.hpf.MemberIterator;
import org.hpf.ReadSettings;
import org.hpf.WriteSettings;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The public API on HDFS (the shared MiniDFSCluster): settings from keys, HDFS summary. */
@Tag("hdfs")
class HpfArchiveHdfsTest {
  @Test
  void writesAndReadsOnHdfsWithKeysFromTheConfiguration() throws IOException {
    Configuration conf = new Configuration(MiniDfs.shared().configuration());
    conf.set(ArchiveSettings.PART_SIZE_KEY, "64k");
    conf.setBoolean(WriteSettings.PIN_INDEX_KEY, false);
    conf.setBoolean(ReadSettings.OPEN_ALL_FILES_KEY, true);
    Path archive = MiniDfs.shared().fileSystem().makeQualified(new Path("/api/logs.hpf"));
    CommitResult created;
    try (ArchiveWriter writer = HpfArchive.create(archive, conf)) {
      for (int i = 0; i < 100; i++) {
        writer.add("logs/" + i, ("line " + i + "\n").repeat(100).getBytes(UTF_8));
      }
      created = writer.commit();
    }
    assertEquals(100, created.fileCount());
    assertTrue(created.hdfs().contains("cache pinning off"), created.hdfs());
    try (ArchiveWriter writer = HpfArchive.openWriter(archive, conf)) {
      writer.delete("logs/7");
      writer.add("logs/new", "new".getBytes(UTF_8));
      assertEquals(2, writer.commit().generation());
    }
    try (ArchiveReader reader = HpfArchive.openReader(archive, conf)) {
      assertArrayEquals(("line 42\n").repeat(100).getBytes(UTF_8), reader.get("logs/42"));
      assertThrows(FileNotInArchiveException.class, () -> reader.get("logs/7"));
      BlockLocation[] where = reader.blockLocations("logs/42");
      assertTrue(where.length >= 1 && where[0].getHosts().length >= 1, "hosts of the entry");
      List<String> names = new ArrayList<>();
      try (MemberIterator members = reader.list("logs/")) {
        while (members.hasNext()) {
          names.add(members.next().name());
        }
      }
      assertEquals(100, names.size());
      assertFalse(names.contains("logs/7"));
      assertTrue(names.contains("logs/new"));
    }
  }
}
