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
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.ArchiveReader;
import org.hpf.ArchiveSettings;
import org.hpf.ArchiveWriter;
import org.hpf.BatchRead;
import org.hpf.CommitResult;
import org.hpf.ExistingNames;
import org.hpf.FileNotInArchiveException;
import org.hpf.HpfArchive;
import org.hpf.MemberAccess;
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

  /** A batch read on HDFS: parallel positioned reads, compressed members, a missing name. */
  @Test
  void readsManyMembersAtOnceOnHdfs() throws IOException {
    Configuration conf = new Configuration(MiniDfs.shared().configuration());
    conf.set(ArchiveSettings.PART_SIZE_KEY, "64k");
    conf.setBoolean(WriteSettings.PIN_INDEX_KEY, false);
    conf.set(BatchRead.WINDOW_KEY, "32k");
    Path archive = MiniDfs.shared().fileSystem().makeQualified(new Path("/api/batch.hpf"));
    Map<String, byte[]> members = new TreeMap<>();
    try (ArchiveWriter writer = HpfArchive.create(archive, conf)) {
      for (int i = 0; i < 200; i++) {
        byte[] bytes = ("line " + i + "\n").repeat(50 + i).getBytes(UTF_8);
        members.put("logs/" + i, bytes);
        writer.add("logs/" + i, bytes);
      }
      writer.commit();
    }
    try (ArchiveReader reader = HpfArchive.openReader(archive, conf)) {
      Map<String, byte[]> read = new TreeMap<>();
      List<String> order = new ArrayList<>();
      reader.readDirectory("logs", BatchRead.from(conf).withCallerOrder(true), member -> {
        order.add(member.name());
        read.put(member.name(), member.bytes());
      });
      assertEquals(new ArrayList<>(members.keySet()), order);
      for (String name : members.keySet()) {
        assertArrayEquals(members.get(name), read.get(name), name);
      }
      List<String> missing = new ArrayList<>();
      reader.readAll(List.of("logs/3", "logs/none", "logs/199"), BatchRead.from(conf),
          member -> {
            if (member.found()) {
              assertArrayEquals(members.get(member.name()), member.bytes());
            } else {
              missing.add(member.name());
            }
          });
      assertEquals(List.of("logs/none"), missing);
    }
  }

  /** Writes a file on HDFS with an owner, group and mode, and records what it must show. */
  private static void put(FileSystem fs, Path root, String name, MemberAccess access,
      Map<String, MemberAccess> want) throws IOException {
    Path file = new Path(root, name);
    try (FSDataOutputStream out = fs.create(file, true)) {
      out.write(name.getBytes(UTF_8));
    }
    fs.setOwner(file, access.owner(), access.group());
    fs.setPermission(file, access.permission());
    want.put(name, access);
  }

  @Test
  void recordsHdfsOwnersGroupsAndModesThroughAppendDeleteAndCompaction() throws IOException {
    Configuration conf = new Configuration(MiniDfs.shared().configuration());
    conf.setBoolean(WriteSettings.PIN_INDEX_KEY, false);
    FileSystem dfs = MiniDfs.shared().fileSystem();
    Path tree = dfs.makeQualified(new Path("/api/access-tree"));
    Map<String, MemberAccess> want = new TreeMap<>();
    put(dfs, tree, "bin/tool", new MemberAccess("alice", "staff", 0755), want);
    put(dfs, tree, "etc/secret", new MemberAccess("bob", "wheel", 0600), want);
    put(dfs, tree, "data/read-only", new MemberAccess("carol", "users", 0444), want);
    Path archive = dfs.makeQualified(new Path("/api/access.hpf"));
    String hpf = "hpf://hdfs-" + archive.toUri().getAuthority() + archive.toUri().getPath();
    // The superuser archives four users' files, some private, into an archive only it may
    // read: it takes their own files from them, which this test allows (see HdfsAccessTest).
    WriteSettings allowLoss = WriteSettings.builder(conf).allowAccessLoss(true).build();
    try (ArchiveWriter writer = HpfArchive.create(archive, conf, ArchiveSettings.from(conf),
        allowLoss)) {
      writer.addTree(List.of(tree), ExistingNames.FAIL);
      writer.commit();
    }
    MemberAccessTest.assertAccesses(conf, archive, hpf, want);

    Path more = dfs.makeQualified(new Path("/api/access-more"));
    put(dfs, more, "late.log", new MemberAccess("dave", "ops", 0640), want);
    try (ArchiveWriter writer = HpfArchive.openWriter(archive, conf, allowLoss)) {
      writer.addTree(List.of(more), ExistingNames.FAIL);
      writer.delete("etc/secret");
      writer.commit();
    }
    want.remove("etc/secret");
    MemberAccessTest.assertAccesses(conf, archive, hpf, want);
    try (ArchiveWriter writer = HpfArchive.openWriter(archive, conf)) {
      writer.compact(1.0);
      writer.commit();
    }
    MemberAccessTest.assertAccesses(conf, archive, hpf, want);
  }
}
