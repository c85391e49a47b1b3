package org.hpf.internal.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.FileKind;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.format.NameHasher;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.RandomFiles;
import org.hpf.testing.ReadCountingStorage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Format 2 beside format 1: a new archive answers stat and exists from its index alone; an
 * archive of format 1 stays readable, an append writes its new files in the current version and
 * keeps the archive's hash algorithm, and compaction rewrites the records it moves with their times.
 */
class FormatUpgradeTest {
  @TempDir java.nio.file.Path tmp;
  private final Configuration conf = new Configuration();

  private ReadCountingStorage counting(Path archive) throws IOException {
    FileSystem fs = archive.getFileSystem(conf);
    return new ReadCountingStorage(HdfsIntegration.storage(fs, archive));
  }

  @Test
  void statAndExistsOfANewArchiveReadOnlyTheIndex() throws IOException {
    TreeMap<String, byte[]> files = RandomFiles.archive(tmp, "s.hpf", "s", 300, 700, 3,
        WriterOptions.builder().settings(s -> s.threads(1)).layout(l -> l.withBucketCapacity(64))
            .build());
    Path archive = new Path(tmp.resolve("s.hpf").toUri());
    ReadCountingStorage storage = counting(archive);
    try (HpfReader reader = HpfReader.open(storage, ReaderOptions.defaults())) {
      assertEquals(NameHasher.SHA256_128_ID, reader.manifest().hashAlgorithm());
      Map<String, Long> mtimes = new HashMap<>();
      try (Stream<NameEntry> listed = reader.listEntries()) {
        listed.forEach(e -> mtimes.put(e.name(), e.mtimeMillis()));
      }
      long index = storage.reads("index");
      for (Map.Entry<String, byte[]> file : files.entrySet()) {
        String name = file.getKey();
        EntryStatus status = reader.stat(name);
        assertEquals(file.getValue().length, status.length(), name);
        assertEquals((long) mtimes.get(name), status.mtimeMillis(), name);
        assertTrue(reader.exists(name), name);
      }
      assertFalse(reader.exists("s/no-such-member"));
      long statReads = storage.reads("index") - index;
      assertTrue(statReads > 0 && statReads <= 3L * files.size() + 10, "index reads " + statReads);
      assertEquals(0, storage.reads("part"), "stat and exists read no part");
      // The entries say the same: stored length, codec and place included.
      for (String name : files.keySet()) {
        assertEquals(reader.checkedStat(name), reader.stat(name), name);
      }
      assertTrue(storage.reads("part") >= files.size());
    }
  }

  @Test
  void anAppendToAFormat1ArchiveWritesVersion2FilesAndKeepsItsHash() throws IOException {
    java.nio.file.Path copy = tmp.resolve("v1.hpf");
    copyTree(resource("/golden/v1/archive.hpf"), copy);
    Path archive = new Path(copy.toUri());
    Map<String, byte[]> before = new TreeMap<>();
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      assertEquals(NameHasher.MURMUR3_128_ID, reader.manifest().hashAlgorithm());
      for (String name : names(reader)) {
        before.put(name, reader.get(name));
      }
    }
    TreeMap<String, byte[]> added = RandomFiles.write(tmp.resolve("more"), "new", 40, 300, 9);
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, WriterOptions.defaults())) {
      writer.append(List.of(new Path(tmp.resolve("more").toUri())), false);
    }
    ArchiveStorage storage = HdfsIntegration.storage(archive.getFileSystem(conf), archive);
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      Manifest manifest = reader.manifest();
      assertEquals(NameHasher.MURMUR3_128_ID, manifest.hashAlgorithm(), "the archive's hash");
      assertEquals(FileKind.MANIFEST.version(), versionOf(copy, Manifest.fileName(
          manifest.generation())));
      DirectoryFile top = reader.layers().get(reader.layers().size() - 1);
      int written = 0;
      for (BucketRef ref : top.buckets()) {
        if (ref.recordCount() > 0 && ref.indexGeneration() == manifest.generation()) {
          assertEquals(FileKind.INDEX.version(), versionOf(copy, ref.indexFile()),
              ref.indexFile());
          written++;
        }
      }
      assertTrue(written > 0, "the append wrote index files");
      for (Map.Entry<String, byte[]> e : before.entrySet()) {
        assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
      }
      for (Map.Entry<String, byte[]> e : added.entrySet()) {
        assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
        assertEquals(reader.checkedStat(e.getKey()), reader.stat(e.getKey()), e.getKey());
      }
    }
    assertEquals(List.of(), ArchiveVerifier.verify(storage, ReaderOptions.defaults(), b -> {})
        .problems());

    // Compaction moves every live entry of the sparse parts and writes their records with the
    // entries' times; all still reads, verified.
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, WriterOptions.defaults())) {
      writer.compact(1.0);
    }
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      assertEquals(NameHasher.MURMUR3_128_ID, reader.manifest().hashAlgorithm());
      assertEquals(1, reader.layers().size(), "compaction merged the layers");
      int withTime = 0;
      for (BucketRef ref : reader.directory().buckets()) {
        if (ref.recordCount() > 0) {
          assertEquals(FileKind.INDEX.version(), versionOf(copy, ref.indexFile()),
              ref.indexFile());
        }
      }
      for (String name : names(reader)) {
        if (reader.recordOfHash(name).hasMtime()) {
          withTime++;
        }
        assertEquals(reader.checkedStat(name), reader.stat(name), name);
      }
      assertTrue(withTime > before.size() / 2, withTime + " records with their time");
    }
    assertEquals(List.of(), ArchiveVerifier.verify(storage, ReaderOptions.defaults(), b -> {})
        .problems());
  }

  private static List<String> names(HpfReader reader) throws IOException {
    try (Stream<String> names = reader.list()) {
      return new ArrayList<>(names.toList());
    }
  }

  private static int versionOf(java.nio.file.Path archive, String file) throws IOException {
    return Files.readAllBytes(archive.resolve(file))[5];
  }

  private static java.nio.file.Path resource(String name) {
    try {
      return java.nio.file.Path.of(FormatUpgradeTest.class.getResource(name).toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void copyTree(java.nio.file.Path from, java.nio.file.Path to) throws IOException {
    try (Stream<java.nio.file.Path> walk = Files.walk(from)) {
      for (java.nio.file.Path p : walk.toList()) {
        java.nio.file.Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
