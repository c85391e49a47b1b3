package org.hpf.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.ReadCountingFileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every member opened once through {@code hpf://}, in the orders readers open files (shuffled,
 * largest first as Spark packs its partitions, the order of the entries, two scans taking turns,
 * a region of a part at a time in any order), after a listing by the same instance: the bytes
 * read of the part and index files stay at most 1.5 times the stored bytes of the members
 * served, and the orders that take neighbours together are served in few reads.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenOrderReadBytesTest {
  private static final int FILES = 2000;
  /** A small window, so that the archive has many regions. */
  private static final long WINDOW = 128 << 10;

  @TempDir static java.nio.file.Path tmp;
  /** {@value #FILES} members of 200 bytes to 12 KB. */
  private Archive archive;
  /**
   * 60 members of 100 bytes to 2 KB, whose index and preambles weigh a tenth of the members:
   * they count against the bound too.
   */
  private Archive small;

  private record Member(String name, IndexRecord record) {}

  /** An archive's root in {@code hpf://}, its members' bytes, and its members in entry order. */
  private record Archive(Path root, Map<String, byte[]> files, List<Member> members) {}

  @BeforeAll
  void createArchives() throws Exception {
    archive = create("a", FILES, 200, 60, new Random(41));
    small = create("small", 60, 100, 20, new Random(43));
  }

  private static Archive create(String name, int count, int least, int spread, Random random)
      throws Exception {
    java.nio.file.Path src = tmp.resolve(name + "-src");
    Map<String, byte[]> files = SourceTree.write(src, count, i -> String.format(Locale.ROOT,
        "d%d/f-%04d.txt", i % 5, i), i -> member(random, i, least, spread));
    java.nio.file.Path dir = tmp.resolve(name + ".hpf");
    Configuration conf = new Configuration();
    ArchiveCreator.create(conf, new Path(dir.toUri()), List.of(new Path(src.toUri())),
        WriterOptions.builder().settings(s -> s.threads(1)).build());
    List<Member> members = new ArrayList<>();
    try (HpfReader reader = HpfReader.open(conf, new Path(dir.toUri()))) {
      for (String member : files.keySet()) {
        members.add(new Member(member, reader.record(member)));
      }
    }
    members.sort(Comparator.comparingInt((Member m) -> m.record().part())
        .thenComparingLong(m -> m.record().offset()));
    return new Archive(new Path("hpf://countfs-" + dir + "/"), files, members);
  }

  /**
   * {@code least} bytes to {@code spread} times that, log-uniform; half text that LZ4 halves,
   * half random bytes.
   */
  private static byte[] member(Random random, int i, int least, int spread) {
    int length = (int) Math.round(least * Math.pow(spread, random.nextDouble()));
    byte[] bytes = new byte[length];
    if (i % 2 == 0) {
      random.nextBytes(bytes);
    } else {
      byte[] line = ("line of file " + i + " with some words " + random.nextInt() + "\n")
          .getBytes(StandardCharsets.UTF_8);
      for (int j = 0; j < length; j++) {
        bytes[j] = line[j % line.length];
      }
    }
    return bytes;
  }

  @Test
  void shuffled() throws Exception {
    opensReadAtMostOneAndAHalfTimes(archive, shuffled(archive.members()));
  }

  @Test
  void largestFirst() throws Exception {
    opensReadAtMostOneAndAHalfTimes(archive, largestFirst(archive.members()));
  }

  @Test
  void fewSmallMembersShuffled() throws Exception {
    opensReadAtMostOneAndAHalfTimes(small, shuffled(small.members()));
  }

  @Test
  void fewSmallMembersLargestFirst() throws Exception {
    opensReadAtMostOneAndAHalfTimes(small, largestFirst(small.members()));
  }

  @Test
  void fewSmallMembersInEntryOrder() throws Exception {
    opensReadAtMostOneAndAHalfTimes(small, small.members());
  }

  @Test
  void anOpenAfterAListingReadsNoIndex() throws Exception {
    Member member = archive.members().get(FILES / 2);
    Path path = new Path(archive.root(), member.name());
    for (boolean listFirst : new boolean[] {false, true}) {
      try (FileSystem hpf = FileSystem.newInstance(archive.root().toUri(),
          ReadCountingFileSystem.conf(false))) {
        hpf.getFileStatus(archive.root()); // opens the archive: its manifest
        if (listFirst) {
          for (RemoteIterator<LocatedFileStatus> it = hpf.listFiles(archive.root(), true);
              it.hasNext();) {
            it.next();
          }
        }
        ReadCountingFileSystem.reset();
        try (FSDataInputStream in = hpf.open(path)) {
          assertArrayEquals(archive.files().get(member.name()), in.readAllBytes());
        }
        // The names entry the listing read gave the member's record; else it is looked up.
        assertEquals(listFirst, ReadCountingFileSystem.indexReads() == 0,
            ReadCountingFileSystem.indexReads() + " index reads, listed first: " + listFirst);
        assertEquals(2, ReadCountingFileSystem.positionedReads(), "the part's preamble, its entry");
      }
    }
  }

  private static List<Member> shuffled(List<Member> members) {
    List<Member> order = new ArrayList<>(members);
    Collections.shuffle(order, new Random(7));
    return order;
  }

  private static List<Member> largestFirst(List<Member> members) {
    List<Member> order = new ArrayList<>(members);
    order.sort(Comparator.comparingLong((Member m) -> m.record().originalLength()).reversed());
    return order;
  }

  @Test
  void inEntryOrder() throws Exception {
    long reads = opensReadAtMostOneAndAHalfTimes(archive, archive.members());
    assertTrue(reads < FILES / 10, reads + " reads of the parts for " + FILES + " members");
  }

  @Test
  void twoScansTakingTurns() throws Exception {
    List<Member> members = archive.members();
    List<Member> order = new ArrayList<>();
    int half = members.size() / 2;
    for (int i = 0; i < half; i++) {
      order.add(members.get(i));
      order.add(members.get(half + i));
    }
    long reads = opensReadAtMostOneAndAHalfTimes(archive, order);
    assertTrue(reads < FILES / 10, reads + " reads of the parts for " + FILES + " members");
  }

  @Test
  void aRegionAtATimeInAnyOrder() throws Exception {
    List<Member> members = archive.members();
    List<Member> order = new ArrayList<>();
    Random random = new Random(3);
    for (int from = 0; from < members.size(); from += 100) {
      List<Member> group = new ArrayList<>(members.subList(from,
          Math.min(members.size(), from + 100)));
      Collections.shuffle(group, random);
      order.addAll(group);
    }
    long reads = opensReadAtMostOneAndAHalfTimes(archive, order);
    assertTrue(reads < FILES / 3, reads + " reads of the parts for " + FILES + " members");
  }

  /**
   * Lists {@code archive}, then opens and reads every member of {@code order} through a new
   * instance; asserts the bytes and the bound, and returns the reads of the parts.
   */
  private static long opensReadAtMostOneAndAHalfTimes(Archive archive, List<Member> order)
      throws Exception {
    Configuration conf = ReadCountingFileSystem.conf(false);
    conf.setLong(HpfFileSystem.READ_AHEAD_KEY, WINDOW);
    Path root = archive.root();
    try (FileSystem hpf = FileSystem.newInstance(root.toUri(), conf)) {
      List<LocatedFileStatus> listed = new ArrayList<>();
      RemoteIterator<LocatedFileStatus> it = hpf.listFiles(root, true);
      while (it.hasNext()) {
        listed.add(it.next());
      }
      ReadCountingFileSystem.reset();
      long served = 0;
      for (Member member : order) {
        try (FSDataInputStream in = hpf.open(new Path(root, member.name()))) {
          assertArrayEquals(archive.files().get(member.name()), in.readAllBytes(), member.name());
        }
        served += member.record().entryLength();
      }
      long read = ReadCountingFileSystem.positionedBytes() + ReadCountingFileSystem.indexBytes();
      assertTrue(read <= 1.5 * served, String.format(Locale.ROOT, "%,d bytes read (%,d of the"
          + " parts in %,d reads, %,d of the index) for %,d stored bytes served: %.2fx", read,
          ReadCountingFileSystem.positionedBytes(), ReadCountingFileSystem.positionedReads(),
          ReadCountingFileSystem.indexBytes(), served, (double) read / served));
      return ReadCountingFileSystem.positionedReads();
    }
  }
}
