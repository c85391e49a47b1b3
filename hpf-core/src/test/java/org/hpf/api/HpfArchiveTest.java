package org.hpf.api;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.hpf.ArchiveLockedException;
import org.hpf.ArchiveReader;
import org.hpf.ArchiveSettings;
import org.hpf.ArchiveWriter;
import org.hpf.CommitResult;
import org.hpf.DuplicateNameException;
import org.hpf.ExistingNames;
import org.hpf.FileNotInArchiveException;
import org.hpf.HpfArchive;
import org.hpf.HpfException;
import org.hpf.MemberIterator;
import org.hpf.MemberStatus;
import org.hpf.NameExistsException;
import org.hpf.ReadSettings;
import org.hpf.WriteSettings;
import org.hpf.internal.read.HpfReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The public API end to end on the local file system: one writer life cycle, one reader. */
class HpfArchiveTest {
  private static final Configuration CONF = new Configuration();

  @TempDir java.nio.file.Path tmp;

  private Path archive() {
    return new Path(tmp.resolve("a.hpf").toUri());
  }

  private static List<String> names(MemberIterator members) throws IOException {
    List<String> names = new ArrayList<>();
    while (members.hasNext()) {
      names.add(members.next().name());
    }
    return names;
  }

  @Test
  void createsReadsAndListsThroughThePublicTypes() throws IOException {
    java.nio.file.Path tree = tmp.resolve("tree");
    Files.createDirectories(tree.resolve("logs"));
    Files.writeString(tree.resolve("logs/b.log"), "bee");
    Files.writeString(tree.resolve("top.txt"), "top");
    CommitResult created;
    try (ArchiveWriter writer = HpfArchive.create(archive(), CONF)) {
      writer.add("a/one", "1".getBytes(UTF_8));
      writer.add("a/two", new ByteArrayInputStream("22".getBytes(UTF_8)), 2, 1_000L);
      writer.addTree(List.of(new Path(tree.toUri())), ExistingNames.FAIL);
      created = writer.commit();
    }
    assertEquals(1, created.generation());
    assertEquals(4, created.filesAdded());
    assertEquals(4, created.fileCount());
    try (ArchiveReader reader = HpfArchive.openReader(archive(), CONF)) {
      assertArrayEquals("22".getBytes(UTF_8), reader.get("a/two"));
      try (InputStream in = reader.open("logs/b.log")) {
        assertEquals("bee", new String(in.readAllBytes(), UTF_8));
      }
      assertTrue(reader.exists("top.txt"));
      assertFalse(reader.exists("a"));
      assertEquals(new MemberStatus("a/two", 2, 1_000L, org.hpf.MemberAccess.defaultFor(CONF)),
          reader.stat("a/two"));
      assertThrows(FileNotInArchiveException.class, () -> reader.get("missing"));
      assertEquals(List.of("a/one", "a/two", "logs/b.log", "top.txt"), names(reader.list("")));
      assertEquals(List.of("a/one", "a/two"), names(reader.list("a/")));
      assertEquals(1, reader.blockLocations("a/one").length);
      MemberIterator members = reader.list("");
      members.next();
      members.close();
      assertFalse(members.hasNext(), "a closed listing has nothing more");
    }
  }

  @Test
  void oneCommitPublishesAdditionsAndDeletionsAsOneGeneration() throws IOException {
    try (ArchiveWriter writer = HpfArchive.create(archive(), CONF)) {
      for (int i = 0; i < 5; i++) {
        writer.add("f" + i, ("v" + i).getBytes(UTF_8));
      }
      writer.commit();
    }
    try (ArchiveReader reader = HpfArchive.openReader(archive(), CONF)) {
      try (ArchiveWriter writer = HpfArchive.openWriter(archive(), CONF)) {
        writer.delete("f1");
        writer.delete("f2");
        writer.add("g", "new".getBytes(UTF_8));
        writer.replace("f3", new ByteArrayInputStream("w3".getBytes(UTF_8)), 2, 7L);
        assertThrows(FileNotInArchiveException.class, () -> writer.delete("nothing"));
        assertThrows(NameExistsException.class, () -> writer.add("f4", new byte[1]));
        CommitResult result = writer.commit();
        assertEquals(2, result.generation());
        assertEquals(1, result.filesAdded());
        assertEquals(1, result.filesReplaced());
        assertEquals(2, result.filesDeleted());
        assertEquals(4, result.fileCount());
      }
      assertTrue(reader.exists("f1"), "a reader stays on its generation until refreshed");
      assertTrue(reader.refresh());
      assertFalse(reader.refresh(), "nothing newer");
      assertEquals(List.of("f0", "f3", "f4", "g"), names(reader.list("")));
      assertArrayEquals("w3".getBytes(UTF_8), reader.get("f3"));
      assertThrows(FileNotInArchiveException.class, () -> reader.stat("f2"));
    }
    try (HpfReader engine = HpfReader.open(CONF, archive())) {
      assertEquals(2, engine.generation(), "one commit, one generation");
    }
  }

  @Test
  void refreshIsSafeWhileOtherThreadsReadAndStreamsOutliveIt() throws Exception {
    byte[] big = new byte[3 << 20]; // raw and above 1 MiB: streamed from its part in place
    new java.util.Random(5).nextBytes(big);
    WriteSettings settings = WriteSettings.builder().compression(org.hpf.Compression.NONE)
        .retainGenerations(20).build();
    try (ArchiveWriter writer = HpfArchive.create(archive(), CONF, ArchiveSettings.defaults(),
        settings)) {
      writer.add("big", new ByteArrayInputStream(big), big.length, 1L);
      for (int i = 0; i < 50; i++) {
        writer.add("s" + i, ("small " + i).getBytes(UTF_8));
      }
      writer.commit();
    }
    AtomicBoolean stop = new AtomicBoolean();
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors
        .newFixedThreadPool(4);
    try (ArchiveReader reader = HpfArchive.openReader(archive(), CONF)) {
      InputStream held = reader.open("big");
      byte[] head = held.readNBytes(1000);
      List<java.util.concurrent.Future<Long>> readers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        readers.add(pool.submit(() -> {
          long gets = 0;
          while (!stop.get()) {
            int i = (int) (gets % 50);
            assertArrayEquals(("small " + i).getBytes(UTF_8), reader.get("s" + i));
            try (MemberIterator members = reader.list("s1")) {
              assertTrue(members.hasNext());
            }
            gets++;
          }
          return gets;
        }));
      }
      try (ArchiveWriter writer = HpfArchive.openWriter(archive(), CONF, settings)) {
        for (int round = 0; round < 6; round++) {
          writer.add("n" + round, new byte[] {(byte) round});
          writer.commit();
          assertTrue(reader.refresh(), "round " + round);
          assertTrue(reader.exists("n" + round));
        }
      }
      stop.set(true);
      for (java.util.concurrent.Future<Long> r : readers) {
        assertTrue(r.get() > 0, "every thread read"); // fails if a read failed
      }
      byte[] rest = held.readAllBytes();
      held.close();
      assertArrayEquals(java.util.Arrays.copyOfRange(big, 0, 1000), head);
      assertArrayEquals(java.util.Arrays.copyOfRange(big, 1000, big.length), rest,
          "a stream opened before the refreshes reads on");
      reader.close();
      assertThrows(IOException.class, () -> reader.get("s1"), "a closed reader");
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }
  }

  @Test
  void aChangeThatDeletesAndAddsOneNameFailsAndLeavesTheArchive() throws IOException {
    try (ArchiveWriter writer = HpfArchive.create(archive(), CONF)) {
      writer.add("x", "old".getBytes(UTF_8));
      writer.add("y", "keep".getBytes(UTF_8));
      writer.commit();
    }
    try (ArchiveWriter writer = HpfArchive.openWriter(archive(), CONF)) {
      writer.delete("x");
      writer.replace("x", new ByteArrayInputStream("new".getBytes(UTF_8)), 3, 1L);
      writer.delete("y");
      assertThrows(DuplicateNameException.class, writer::commit);
    }
    try (ArchiveReader reader = HpfArchive.openReader(archive(), CONF)) {
      assertArrayEquals("old".getBytes(UTF_8), reader.get("x"));
      assertArrayEquals("keep".getBytes(UTF_8), reader.get("y"));
    }
  }

  @Test
  void abortAndCloseLeaveTheArchiveAsItWas() throws IOException {
    try (ArchiveWriter writer = HpfArchive.create(archive(), CONF)) {
      writer.add("kept", new byte[] {1});
      writer.commit();
      writer.add("dropped", new byte[] {2});
      writer.delete("kept");
      writer.abort();
      writer.add("dropped-too", new byte[] {3});
    }
    try (ArchiveReader reader = HpfArchive.openReader(archive(), CONF)) {
      assertEquals(List.of("kept"), names(reader.list("")));
    }
  }

  @Test
  void aCompactionIsAChangeOfItsOwn() throws IOException {
    try (ArchiveWriter writer = HpfArchive.create(archive(), CONF)) {
      for (int i = 0; i < 20; i++) {
        writer.add("f" + i, new byte[100]);
      }
      writer.commit();
      for (int i = 0; i < 15; i++) {
        writer.delete("f" + i);
      }
      assertThrows(IllegalStateException.class, () -> writer.compact(0.5));
      writer.commit();
      writer.compact(0.5);
      assertThrows(IllegalStateException.class, () -> writer.add("late", new byte[1]));
      assertThrows(IllegalArgumentException.class, () -> writer.compact(2));
      CommitResult compacted = writer.commit();
      assertEquals(3, compacted.generation());
      assertTrue(compacted.bytesWritten() > 0, "the live members were copied");
      assertEquals(5, compacted.fileCount());

      // Now every part is live and the index one layer: nothing to do, nothing committed.
      writer.compact(1.0);
      CommitResult again = writer.commit();
      assertEquals(3, again.generation(), "the generation stays");
      assertEquals(0, again.bytesWritten());
      assertEquals(5, again.fileCount());
    }
    try (var manifests = Files.list(tmp.resolve("a.hpf/_manifests"))) {
      assertTrue(manifests.noneMatch(m -> m.getFileName().toString().endsWith("4")),
          "a compaction with nothing to do commits no generation");
    }
    try (ArchiveReader reader = HpfArchive.openReader(archive(), CONF)) {
      assertEquals(5, names(reader.list("")).size());
      assertArrayEquals(new byte[100], reader.get("f19"));
    }
  }

  @Test
  void aMissingArchiveDoesNotExist() throws IOException {
    String missing = "archive does not exist: ";
    FileNotFoundException reading = assertThrows(FileNotFoundException.class,
        () -> HpfArchive.openReader(archive(), CONF));
    assertTrue(reading.getMessage().startsWith(missing), reading.getMessage());
    FileNotFoundException writing = assertThrows(FileNotFoundException.class,
        () -> HpfArchive.openWriter(archive(), CONF));
    assertTrue(writing.getMessage().startsWith(missing), writing.getMessage());

  }

  @Test
  void closingWithoutCommitWarnsOfWhatItDiscards() throws IOException {
    LogCapturer log = LogCapturer.captureLogs(LoggerFactory.getLogger(ArchiveWriter.class));
    try {
      try (ArchiveWriter writer = HpfArchive.create(archive(), CONF)) {
        writer.add("a", new byte[1]);
        writer.add("b", new byte[2]);
      }
      assertTrue(log.getOutput().contains("writer closed without commit(): 2 member(s) added"
          + " and 0 deletion(s) discarded; the archive was never committed and is removed"),
          log.getOutput());
      assertFalse(Files.exists(tmp.resolve("a.hpf")));
    } finally {
      log.stopCapturing();
    }
  }

  @Test
  void oneCallArchivesTreesAndBytesAreModifiedNow() throws IOException {
    java.nio.file.Path tree = Files.createDirectories(tmp.resolve("tree/logs"));
    Files.writeString(tree.resolve("a.log"), "a");
    Files.writeString(tmp.resolve("tree/b.txt"), "bb");
    CommitResult created = HpfArchive.createFromTrees(archive(), CONF,
        List.of(new Path(tmp.resolve("tree").toUri())));
    assertEquals(2, created.filesAdded());

    long before = System.currentTimeMillis();
    try (ArchiveWriter writer = HpfArchive.openWriter(archive(), CONF)) {
      writer.replace("b.txt", "new".getBytes(UTF_8));
      writer.replace("c.txt", "c".getBytes(UTF_8));
      assertEquals(1, writer.commit().filesReplaced());
    }
    try (ArchiveReader reader = HpfArchive.openReader(archive(), CONF)) {
      assertArrayEquals("a".getBytes(UTF_8), reader.get("logs/a.log"));
      assertArrayEquals("new".getBytes(UTF_8), reader.get("b.txt"));
      MemberStatus replaced = reader.stat("b.txt");
      assertTrue(replaced.modificationTime() >= before, () -> "modified at the call: "
          + replaced);
    }
  }

  @Test
  void listTakesADirectoryAsFileSystemListingsDo() throws IOException {
    try (ArchiveWriter writer = HpfArchive.create(archive(), CONF)) {
      for (String name : List.of("app-1/a.log", "app-1/x/b.log", "app-10/c.log", "app-1.txt",
          "top")) {
        writer.add(name, name.getBytes(UTF_8));
      }
      writer.commit();
    }
    try (ArchiveReader reader = HpfArchive.openReader(archive(), CONF)) {
      assertEquals(List.of("app-1/a.log", "app-1/x/b.log"), names(reader.list("app-1")));
      assertEquals(List.of("app-1/a.log", "app-1/x/b.log"), names(reader.list("app-1/")));
      assertEquals(List.of("app-1/x/b.log"), names(reader.list("app-1/x")));
      assertEquals(List.of("top"), names(reader.list("top")), "a member lists itself");
      assertEquals(List.of(), names(reader.list("app")));
      assertEquals(5, names(reader.list()).size());
      assertTrue(reader.isDirectory("app-1"));
      assertTrue(reader.isDirectory("app-1/x/"));
      assertTrue(reader.isDirectory(""), "the root");
      assertFalse(reader.isDirectory("app"));
      assertFalse(reader.isDirectory("top"), "a member is no directory");
      assertFalse(reader.exists("app-1"), "exists is about members");
    }
  }

  @Test
  void aSecondWriterIsRefused() throws IOException {
    try (ArchiveWriter writer = HpfArchive.create(archive(), CONF)) {
      writer.commit();
      ArchiveLockedException e = assertThrows(ArchiveLockedException.class,
          () -> HpfArchive.openWriter(archive(), CONF));
      assertTrue(e instanceof HpfException);
      // Its holder is alive in this process: breaking the lock is no advice to give.
      assertTrue(e.getMessage().contains("locked by another writer in this process"),
          e.getMessage());
      assertFalse(e.getMessage().contains("breakLock"), e.getMessage());
      assertFalse(e.getMessage().contains("token"), e.getMessage());
    }
  }

  @Test
  void settingsComeFromTheConfiguration() throws IOException {
    Configuration conf = new Configuration(CONF);
    conf.set(ArchiveSettings.PART_SIZE_KEY, "64k");
    conf.setInt(ArchiveSettings.BUCKET_CAPACITY_KEY, 64);
    conf.set(WriteSettings.COMPRESSION_KEY, "none");
    conf.set(ReadSettings.RECORD_CACHE_KEY, "1m");
    assertEquals(64 << 10, ArchiveSettings.from(conf).partSize());
    assertEquals(1 << 20, ReadSettings.from(conf).recordCacheBytes());
    try (ArchiveWriter writer = HpfArchive.create(archive(), conf)) {
      for (int i = 0; i < 200; i++) {
        writer.add("f" + i, new byte[1000]); // compressible: stored raw only when told so
      }
      writer.commit();
    }
    try (HpfReader engine = HpfReader.open(CONF, archive())) {
      assertEquals(64 << 10, engine.manifest().partSize());
      assertEquals(64, engine.manifest().bucketCapacity());
      assertTrue(engine.manifest().parts().size() > 1, "200 KB in parts of 64 KB");
      assertEquals(engine.manifest().originalBytes() + 0, 200_000);
      assertTrue(engine.manifest().storedBytes() > 200_000, "stored raw");
    }
    conf.set(WriteSettings.COMPRESSION_KEY, "zip");
    assertThrows(IllegalArgumentException.class, () -> WriteSettings.from(conf));
    conf.set(ArchiveSettings.PART_SIZE_KEY, "0");
    assertThrows(IllegalArgumentException.class, () -> ArchiveSettings.from(conf));
  }
}
