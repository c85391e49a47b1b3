package org.hpf.internal.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.RandomFiles;
import org.hpf.testing.ReadCountingStorage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records of many names at once agree with one lookup per name, through index layers with
 * replaced and deleted members, and read the index in runs rather than a record at a time.
 */
class BatchLookupTest {
  @TempDir java.nio.file.Path tmp;

  @Test
  void agreesWithSingleLookupsAndReadsTheIndexInRuns() throws IOException {
    TreeMap<String, byte[]> files = RandomFiles.write(tmp.resolve("src"), "m", 3000, 50, 8);
    RandomFiles.write(tmp.resolve("more"), "m", 200, 50, 9); // replaces m0..m199
    RandomFiles.write(tmp.resolve("new"), "n", 300, 50, 10);
    Configuration conf = new Configuration();
    Path archive = new Path(tmp.resolve("b.hpf").toUri());
    WriterOptions options = WriterOptions.builder().settings(s -> s.threads(1))
        .layout(l -> l.withBucketCapacity(400)).build();
    ArchiveCreator.create(conf, archive, List.of(new Path(tmp.resolve("src").toUri())), options);
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, options)) {
      writer.append(List.of(new Path(tmp.resolve("more").toUri())), true);
    }
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, options)) {
      writer.append(List.of(new Path(tmp.resolve("new").toUri())), false);
    }
    List<String> deleted = List.of("m5", "m500", "m2999", "n7");
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, options)) {
      writer.delete(deleted);
    }

    List<String> names = new ArrayList<>(files.keySet());
    for (int i = 0; i < 300; i++) {
      names.add("n" + i);
    }
    names.add("not-a-member");
    names.add("a//b"); // no member can have this name
    FileSystem fs = archive.getFileSystem(conf);
    ReadCountingStorage counting = new ReadCountingStorage(HdfsIntegration.storage(fs, archive));
    try (HpfReader single = HpfReader.open(conf, archive);
        HpfReader batch = HpfReader.open(counting, ReaderOptions.defaults())) {
      assertTrue(batch.layers().size() >= 2, "layers: " + batch.layers().size());
      int buckets = 0;
      for (var layer : batch.layers()) {
        buckets += (int) layer.buckets().stream().filter(b -> b.recordCount() > 0).count();
      }
      List<IndexRecord> records = batch.recordsOfHashes(names);
      assertEquals(names.size(), records.size());
      for (int i = 0; i < names.size(); i++) {
        String name = names.get(i);
        assertEquals(single.recordOfHash(name), records.get(i), name);
      }
      for (String name : deleted) {
        assertNull(records.get(names.indexOf(name)), name);
      }
      assertNull(records.get(names.size() - 1));
      assertNull(records.get(names.size() - 2));
      long live;
      try (Stream<String> listed = single.list()) {
        live = listed.count();
      }
      assertEquals(live, records.stream().filter(r -> r != null).count());
      // One read per bucket to load it, then runs of records: far fewer than one per name.
      assertTrue(counting.reads("index") <= 3L * buckets, counting.reads("index") + " index reads for "
          + names.size() + " names in " + buckets + " buckets");
    }
  }

  @Test
  void aDamagedRecordFailsOnlyTheLookupsThatNeedIt() throws IOException {
    TreeMap<String, byte[]> files = RandomFiles.archive(tmp, "d.hpf", "d", 500, 50, 21,
        WriterOptions.builder().settings(s -> s.threads(1)).build());
    Configuration conf = new Configuration();
    Path archive = new Path(tmp.resolve("d.hpf").toUri());
    List<String> names = new ArrayList<>(files.keySet());
    String victim = names.get(250);
    List<IndexRecord> before;
    java.nio.file.Path index;
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      before = reader.recordsOfHashes(names);
      index = tmp.resolve("d.hpf").resolve(reader.directory().buckets().get(0).indexFile());
    }
    // Flip a bit of the victim's offset field: its hash still leads to it, and the checksum of
    // its group of 32 records fails.
    byte[] bytes = java.nio.file.Files.readAllBytes(index);
    byte[] hash = before.get(250).hash().toBytes();
    int at = indexOf(bytes, hash);
    assertTrue(at > 0, "the victim's record is in the index file");
    bytes[at + 20] ^= 0x01;
    java.nio.file.Files.write(index, bytes);

    // Names whose records share the victim's group need it; the others do not.
    long recordsOffset = 24 + 15 + reader0FunctionLength(conf, archive) + 4;
    long group = (at - recordsOffset) / 1284;
    List<String> others = new ArrayList<>();
    int sharing = 0;
    for (int i = 0; i < names.size(); i++) {
      int offset = indexOf(bytes, before.get(i).hash().toBytes());
      if ((offset - recordsOffset) / 1284 == group) {
        sharing++;
      } else {
        others.add(names.get(i));
      }
    }
    assertTrue(sharing >= 20 && sharing <= 32, "the victim's group: " + sharing);
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      List<IndexRecord> records = reader.recordsOfHashes(others);
      for (int i = 0; i < others.size(); i++) {
        assertEquals(before.get(names.indexOf(others.get(i))), records.get(i), others.get(i));
      }
      org.junit.jupiter.api.Assertions.assertThrows(org.hpf.CorruptArchiveException.class,
          () -> reader.recordsOfHashes(names));
      org.junit.jupiter.api.Assertions.assertThrows(org.hpf.CorruptArchiveException.class,
          () -> reader.recordsOfHashes(List.of(victim)));
    }
  }

  private static long reader0FunctionLength(Configuration conf, Path archive)
      throws IOException {
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      return reader.directory().buckets().get(0).functionLength();
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
