package org.hpf.api;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.hpf.ArchiveReader;
import org.hpf.ArchiveSettings;
import org.hpf.ArchiveWriter;
import org.hpf.BatchMember;
import org.hpf.BatchRead;
import org.hpf.CorruptArchiveException;
import org.hpf.FileNotInArchiveException;
import org.hpf.HpfArchive;
import org.hpf.ReadSettings;
import org.hpf.WriteSettings;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.read.HpfReader;
import org.hpf.testing.ReadCountingFileSystem;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Batch reads through the public API on the local file system: every name answered once, with
 * the member's checked bytes or the news that it is missing, in memory bounded by the window,
 * close entries read together.
 */
class BatchReadTest {
  /**
   * Members of the archive by name: 300 small raw ones under d/, 20 compressed ones under z/, a
   * neighbour d10/ and a large one.
   */
  private final Map<String, byte[]> members = new TreeMap<>();

  @TempDir java.nio.file.Path tmp;

  private Path archive;
  private Configuration conf;

  @BeforeEach
  void createArchive() throws IOException {
    Random random = new Random(31);
    for (int i = 0; i < 300; i++) {
      members.put(String.format("d/%03d", i), randomBytes(random, 200 + random.nextInt(3000)));
    }
    for (int i = 0; i < 20; i++) {
      members.put("z/" + i, ("line " + i + "\n").repeat(200).getBytes(UTF_8)); // lz4
    }
    members.put("d10/x", randomBytes(random, 100));
    members.put("big/one", randomBytes(random, 300_000));
    conf = ReadCountingFileSystem.conf(false);
    archive = ReadCountingFileSystem.path(tmp.resolve("a.hpf"));
    try (ArchiveWriter writer = HpfArchive.create(archive, conf,
        ArchiveSettings.defaults().withPartSize(256 << 10),
        WriteSettings.builder().threads(2).build())) {
      for (Map.Entry<String, byte[]> member : members.entrySet()) {
        writer.add(member.getKey(), member.getValue());
      }
      writer.commit();
    }
  }

  private static byte[] randomBytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes); // incompressible: stored raw
    return bytes;
  }

  /** What the handler got for one name. */
  private record Got(String name, byte[] bytes, IOException failure) {}

  private static List<Got> readAll(ArchiveReader reader, List<String> names, BatchRead settings)
      throws IOException {
    List<Got> got = new ArrayList<>();
    reader.readAll(names, settings, member -> got.add(got(member)));
    return got;
  }

  private static Got got(BatchMember member) throws IOException {
    try {
      byte[] bytes = member.bytes();
      try (InputStream in = member.open()) {
        assertArrayEquals(bytes, in.readAllBytes(), member.name());
      }
      assertEquals(bytes.length, member.status().length());
      assertTrue(member.found());
      return new Got(member.name(), bytes, null);
    } catch (IOException e) {
      return new Got(member.name(), null, e);
    }
  }

  private void assertMembers(List<Got> got) {
    for (Got one : got) {
      assertTrue(one.failure == null, () -> one.name + ": " + one.failure);
      assertArrayEquals(members.get(one.name), one.bytes, one.name);
    }
  }

  private static List<String> namesOf(List<Got> got) {
    return got.stream().map(Got::name).toList();
  }

  @Test
  void readsNamesInRandomOrderEachOnce() throws IOException {
    List<String> names = new ArrayList<>(members.keySet());
    Collections.shuffle(names, new Random(7));
    try (ArchiveReader reader = HpfArchive.openReader(archive, conf)) {
      List<Got> got = readAll(reader, names, BatchRead.defaults());
      assertEquals(names.size(), got.size());
      assertEquals(new java.util.HashSet<>(names), new java.util.HashSet<>(namesOf(got)));
      assertMembers(got);
    }
  }

  @Test
  void readsADirectoryAsListSelectsIt() throws IOException {
    List<String> expected = members.keySet().stream().filter(n -> n.startsWith("d/")).toList();
    try (ArchiveReader reader = HpfArchive.openReader(archive, conf)) {
      for (String directory : List.of("d", "d/")) {
        List<Got> got = new ArrayList<>();
        reader.readDirectory(directory, BatchRead.defaults().withCallerOrder(true),
            member -> got.add(got(member)));
        assertEquals(expected, namesOf(got), "listing order, never d10/x");
        assertMembers(got);
      }
      List<Got> none = new ArrayList<>();
      reader.readDirectory("nothing", BatchRead.defaults(), member -> none.add(got(member)));
      assertEquals(List.of(), none);
    }
  }

  @Test
  void missingNamesAreAnsweredOneByOneAndTheRestIsRead() throws IOException {
    List<String> names = List.of("d/001", "no/such", "d/150", "d/", "d", "", "big/one", "x");
    try (ArchiveReader reader = HpfArchive.openReader(archive, conf)) {
      Map<String, Got> got = new LinkedHashMap<>();
      reader.readAll(names, BatchRead.defaults(), member -> {
        got.put(member.name(), got(member));
        if (!member.found()) {
          assertThrows(FileNotInArchiveException.class, member::status);
        }
      });
      assertEquals(names.size(), got.size());
      for (String missing : List.of("no/such", "d/", "d", "", "x")) {
        assertTrue(got.get(missing).failure instanceof FileNotInArchiveException, missing);
      }
      assertMembers(List.of(got.get("d/001"), got.get("d/150"), got.get("big/one")));
    }
  }

  @Test
  void callerOrderIsTheOrderOfTheNamesWhateverTheWindow() throws IOException {
    List<String> names = new ArrayList<>(members.keySet());
    names.add(40, "not/there");
    Collections.shuffle(names, new Random(11));
    try (ArchiveReader reader = HpfArchive.openReader(archive, conf)) {
      for (long window : new long[] {64L << 20, 20_000, 1}) {
        List<Got> got = readAll(reader, names, BatchRead.defaults().withCallerOrder(true)
            .withWindowBytes(window).withThreads(3));
        assertEquals(names, namesOf(got), "window " + window);
        assertTrue(got.get(names.indexOf("not/there")).failure
            instanceof FileNotInArchiveException);
        assertMembers(got.stream().filter(g -> g.failure == null).toList());
      }
    }
  }

  /**
   * The rule for a member larger than the window: it is not read ahead, but handed out in its
   * turn and read when its bytes are asked for; the members around it are read as usual.
   */
  @Test
  void aMemberLargerThanTheWindowIsStillRead() throws IOException {
    List<String> names = List.of("d/010", "big/one", "d/011");
    try (ArchiveReader reader = HpfArchive.openReader(archive, conf)) {
      List<Got> got = readAll(reader, names,
          BatchRead.defaults().withWindowBytes(100_000).withCallerOrder(true));
      assertEquals(names, namesOf(got));
      assertMembers(got);
      // A window smaller than every member: each is read when asked, one at a time.
      List<Got> tiny = readAll(reader, new ArrayList<>(members.keySet()),
          BatchRead.defaults().withWindowBytes(1));
      assertEquals(members.size(), tiny.size());
      assertMembers(tiny);
    }
  }

  /**
   * The rule for damage: the damaged member's bytes throw the CorruptArchiveException a get
   * throws, naming it, and the others are still handed out; a handler that lets it out stops
   * the batch with it.
   */
  @Test
  void aCorruptMemberFailsAloneAsAGetFails() throws IOException {
    List<String> names = new ArrayList<>(members.keySet());
    String damaged = "d/150";
    flipLastDataByte(damaged);
    try (ArchiveReader reader = HpfArchive.openReader(archive, conf)) {
      CorruptArchiveException single =
          assertThrows(CorruptArchiveException.class, () -> reader.get(damaged));
      assertTrue(single.getMessage().contains("'" + damaged + "'"), single.getMessage());
      List<Got> got = readAll(reader, names, BatchRead.defaults());
      assertEquals(names.size(), got.size());
      Got bad = got.stream().filter(g -> g.name.equals(damaged)).findFirst().orElseThrow();
      assertTrue(bad.failure instanceof CorruptArchiveException, String.valueOf(bad.failure));
      assertEquals(single.getMessage(), bad.failure.getMessage());
      assertMembers(got.stream().filter(g -> g != bad).toList());

      List<String> handled = new ArrayList<>();
      CorruptArchiveException stopped = assertThrows(CorruptArchiveException.class,
          () -> reader.readAll(names, BatchRead.defaults().withCallerOrder(true), member -> {
            member.bytes();
            handled.add(member.name());
          }));
      assertEquals(single.getMessage(), stopped.getMessage());
      assertEquals(names.subList(0, names.indexOf(damaged)), handled);
    }
  }

  /**
   * A part cut short after the reader opened it: a run that meets the end is not its members'
   * verdict; each is read alone, those still whole are handed out, the others fail as a get of
   * them fails.
   */
  @Test
  void aRunThatFailsIsReadMemberByMember() throws IOException {
    List<String> names = members.keySet().stream().filter(n -> n.startsWith("d/")).toList();
    try (ArchiveReader reader = HpfArchive.openReader(archive, conf)) {
      openEveryPart(reader);
      IndexRecord last;
      try (HpfReader engine = HpfReader.open(conf, archive)) {
        last = engine.record(names.get(names.size() - 1));
      }
      java.nio.file.Path part = tmp.resolve("a.hpf").resolve(ArchiveLayout.part(last.part()));
      try (RandomAccessFile file = new RandomAccessFile(part.toFile(), "rw")) {
        file.setLength(last.offset() + 10); // the last member's entry is cut
      }
      String cut = names.get(names.size() - 1);
      CorruptArchiveException single =
          assertThrows(CorruptArchiveException.class, () -> reader.get(cut));
      List<Got> got = readAll(reader, names, BatchRead.defaults());
      assertEquals(names.size(), got.size());
      List<Got> failed = got.stream().filter(g -> g.failure != null).toList();
      assertTrue(failed.stream().anyMatch(g -> g.name.equals(cut)), failed::toString);
      for (Got bad : failed) {
        assertTrue(bad.failure instanceof CorruptArchiveException, bad.failure::toString);
        assertEquals(single.getMessage().replace(cut, bad.name),
            bad.failure.getMessage().replaceAll("offset \\d+", "offset " + last.offset()));
      }
      assertMembers(got.stream().filter(g -> g.failure == null).toList());
      assertTrue(got.size() - failed.size() >= names.size() / 2, "most are still read");
    }
  }

  private void flipLastDataByte(String name) throws IOException {
    IndexRecord record;
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      record = reader.record(name);
    }
    java.nio.file.Path part = tmp.resolve("a.hpf").resolve(ArchiveLayout.part(record.part()));
    try (RandomAccessFile file = new RandomAccessFile(part.toFile(), "rw")) {
      long at = record.offset() + record.entryLength() - 5; // before the 4-byte checksum
      file.seek(at);
      int b = file.read();
      file.seek(at);
      file.write(b ^ 0x01);
    }
  }

  /** Opens the part files (a part's first read also checks its header), before counting. */
  private void openEveryPart(ArchiveReader reader) throws IOException {
    reader.readAll(members.keySet(), BatchRead.defaults().withWindowBytes(1), member -> { });
  }

  /**
   * A directory is read from where its names files say its members lie: no index read, over
   * layers with replaced and deleted members, each member's current bytes; while the same names
   * read by name are looked up in the index.
   */
  @Test
  void aDirectoryIsReadWithoutAnIndexLookupAcrossLayers() throws IOException {
    Random random = new Random(5);
    try (ArchiveWriter writer = HpfArchive.openWriter(archive, conf)) {
      for (int i = 0; i < 300; i += 7) {
        String name = String.format("d/%03d", i);
        members.put(name, randomBytes(random, 100 + random.nextInt(2000)));
        writer.replace(name, members.get(name));
      }
      members.put("d/new", randomBytes(random, 500));
      writer.add("d/new", members.get("d/new"));
      writer.commit();
    }
    try (ArchiveWriter writer = HpfArchive.openWriter(archive, conf)) {
      for (int i = 3; i < 300; i += 11) {
        String name = String.format("d/%03d", i);
        members.remove(name);
        writer.delete(name);
      }
      writer.commit();
    }
    List<String> expected = members.keySet().stream().filter(n -> n.startsWith("d/")).toList();
    // Without index records held in memory, which would spare the lookups by name their reads.
    try (ArchiveReader reader = HpfArchive.openReader(archive, conf,
        ReadSettings.defaults().withIndexMemoryBytes(0))) {
      openEveryPart(reader);
      ReadCountingFileSystem.reset();
      List<Got> got = new ArrayList<>();
      reader.readDirectory("d", BatchRead.defaults().withCallerOrder(true),
          member -> got.add(got(member)));
      assertEquals(expected, namesOf(got));
      assertMembers(got);
      assertEquals(0, ReadCountingFileSystem.indexReads(), "index reads of a directory read");

      ReadCountingFileSystem.reset();
      assertMembers(readAll(reader, expected, BatchRead.defaults()));
      assertTrue(ReadCountingFileSystem.indexReads() > 0, "the same names, read by name, are "
          + "looked up");
    }
  }

  /** Close entries are read together: far fewer positioned reads than members. */
  @Test
  void closeEntriesAreReadWithOneReadPerRun() throws IOException {
    List<String> names = members.keySet().stream().filter(n -> n.startsWith("d/")).toList();
    try (ArchiveReader reader = HpfArchive.openReader(archive, conf)) {
      openEveryPart(reader);
      ReadCountingFileSystem.reset();
      for (String name : names) {
        reader.get(name);
      }
      long single = ReadCountingFileSystem.positionedReads();
      assertEquals(names.size(), single, "a get reads its entry with one positioned read");

      ReadCountingFileSystem.reset();
      assertMembers(readAll(reader, names, BatchRead.defaults()));
      long batch = ReadCountingFileSystem.positionedReads();
      // 300 entries of about 1.8 KB each in a few parts: one read per part and MiB.
      assertTrue(batch >= 1 && batch <= 6, "positioned reads of the batch: " + batch);

      ReadCountingFileSystem.reset();
      assertMembers(readAll(reader, names, BatchRead.defaults().withGapBytes(0)
          .withWindowBytes(4096)));
      long narrow = ReadCountingFileSystem.positionedReads();
      assertTrue(narrow > batch * 10, "a 4 KiB window reads a member or two at a time: "
          + narrow);
      assertEquals(0, ReadCountingFileSystem.vectoredCalls());
    }
  }

  /** Where the file system reads vectored natively, each part's runs go in one call. */
  @Test
  void aNativeVectoredReadServesTheRunsOfAPart() throws IOException {
    Configuration vectored = ReadCountingFileSystem.conf(true);
    List<String> names = new ArrayList<>(members.keySet());
    Collections.shuffle(names, new Random(3));
    try (ArchiveReader reader = HpfArchive.openReader(archive, vectored)) {
      openEveryPart(reader);
      ReadCountingFileSystem.reset();
      assertMembers(readAll(reader, names, BatchRead.defaults().withGapBytes(0)));
      assertEquals(0, ReadCountingFileSystem.positionedReads());
      long calls = ReadCountingFileSystem.vectoredCalls();
      long ranges = ReadCountingFileSystem.vectoredRanges();
      assertTrue(calls >= 1 && calls <= 4, "vectored reads: " + calls);
      assertTrue(ranges >= calls, "ranges: " + ranges);
    }
  }
}
