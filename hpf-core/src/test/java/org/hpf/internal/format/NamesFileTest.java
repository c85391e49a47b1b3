package org.hpf.internal.format;

import static org.hpf.internal.format.FormatTesting.ID;
import static org.hpf.internal.format.FormatTesting.OTHER_ID;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.TreeSet;
import org.hpf.ArchiveVersionException;
import org.hpf.CorruptArchiveException;
import org.hpf.HpfException;
import org.hpf.internal.io.HadoopStorage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The names file: blocks, end block, total, footer; streaming reads and damage. */
class NamesFileTest {
  private static final String FILE = "names-0000000001";

  @TempDir Path tmp;
  private HadoopStorage storage;

  @BeforeEach
  void setUp() throws IOException {
    storage = FormatTesting.storage(tmp);
  }

  private void write(List<NameEntry> entries) throws IOException {
    storage.delete(FILE);
    try (NamesFileWriter writer = new NamesFileWriter(storage.create(FILE, 0), ID)) {
      for (NameEntry entry : entries) {
        writer.add(entry);
      }
      assertEquals(entries.size(), writer.count());
      writer.finish();
    }
  }

  private List<NameEntry> read(ArchiveId id) throws IOException {
    return read(FILE, id);
  }

  private List<NameEntry> read(String file, ArchiveId id) throws IOException {
    List<NameEntry> entries = new ArrayList<>();
    try (NamesFileReader reader = new NamesFileReader(storage.open(file), file, id)) {
      try {
        while (reader.hasNext()) {
          entries.add(reader.next());
        }
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      assertFalse(reader.hasNext());
      assertThrows(NoSuchElementException.class, reader::next);
    }
    return entries;
  }

  /**
   * Entries for sorted names: most present with a length and mtime derived from the seed (some
   * of them 0, negative mtimes too) and where their entry is (raw or LZ4; every ninth without a
   * location), every seventh a deletion.
   */
  static List<NameEntry> entries(List<String> names, long seed) {
    Random random = new Random(seed);
    List<NameEntry> entries = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      if (i % 7 == 3) {
        entries.add(NameEntry.deletion(name));
      } else {
        long length = i % 5 == 0 ? 0 : random.nextLong() >>> (25 + random.nextInt(39));
        long mtime = i % 11 == 0 ? -random.nextInt(1000) : 1_500_000_000_000L + random.nextInt();
        EntryLocation location = i % 9 == 4 ? null : location(random, name, length);
        entries.add(NameEntry.present(name, length, mtime, location));
      }
    }
    return entries;
  }

  /** A valid location of a member's entry: raw, or LZ4 stored in fewer bytes. */
  static EntryLocation location(Random random, String name, long length) {
    long framing = EntryHeader.size(name.getBytes(StandardCharsets.UTF_8).length)
        + EntryHeader.TRAILER_SIZE;
    boolean lz4 = length > 8 && random.nextBoolean();
    long stored = lz4 ? length - 1 - random.nextInt((int) Math.min(length - 1, 1000)) : length;
    return new EntryLocation(random.nextInt(IndexRecord.MAX_PART + 1), lz4 ? 1 : 0,
        random.nextLong() & IndexRecord.MAX_OFFSET, framing + stored);
  }

  private static List<NameEntry> present(String... names) {
    List<NameEntry> entries = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      entries.add(NameEntry.present(names[i], 10L * i, 1_600_000_000_000L + i));
    }
    return entries;
  }

  private static List<String> namesOf(List<NameEntry> entries) {
    return entries.stream().map(NameEntry::name).toList();
  }

  private byte[] bytes() throws IOException {
    return Files.readAllBytes(tmp.resolve(FILE));
  }

  /** Names sorted as the format sorts them (unsigned UTF-8 bytes), with non-ASCII ones. */
  static List<String> names(int count, long seed) {
    Random random = new Random(seed);
    TreeSet<String> set = new TreeSet<>(MemberNames.ORDER);
    String[] alphabet = {"a", "b", "z", "é", "日", "😀", "/", "_", "0", "\uFFFD", "ÿ"};
    while (set.size() < count) {
      StringBuilder name = new StringBuilder("n");
      int length = 1 + random.nextInt(40);
      for (int i = 0; i < length; i++) {
        name.append(alphabet[random.nextInt(alphabet.length)]);
      }
      set.add(name.toString().replace("//", "/x/").replaceAll("/$", "/y"));
    }
    return new ArrayList<>(set);
  }

  /** Parses the file as the spec describes it, independently of NamesFileReader. */
  private static List<List<NameEntry>> blocks(byte[] file) {
    ByteBuffer buf = ByteBuffer.wrap(file);
    buf.position(FileHeader.SIZE);
    List<List<NameEntry>> blocks = new ArrayList<>();
    while (true) {
      int start = buf.position();
      int count = buf.getInt();
      if (count == 0) {
        break;
      }
      assertTrue(count > 0, "Count");
      int length = buf.getInt();
      List<NameEntry> block = new ArrayList<>();
      int end = buf.position() + length;
      for (int i = 0; i < count; i++) {
        int op = buf.get() & 0xFF; // Op: 1 present and located, 2 deleted, 3 present
        byte[] name = new byte[buf.getShort() & 0xFFFF]; // Name:String16
        buf.get(name);
        long length2 = buf.getLong(); // Length
        long mtime = buf.getLong(); // MTimeMillis
        assertTrue(op >= 1 && op <= 3, "Op " + op);
        if (op == 2) {
          assertEquals(0, length2, "Length of a deletion");
          assertEquals(0, mtime, "MTimeMillis of a deletion");
        }
        EntryLocation location = null;
        if (op == 1) { // Part:uint24, Flags:uint8, Offset:uint40, EntryLength:uint40
          int at = buf.position();
          location = new EntryLocation((buf.getShort(at) & 0xFFFF) << 8 | buf.get(at + 2) & 0xFF,
              buf.get(at + 3) & 0xFF, buf.getLong(at + 1) & 0xFF_FFFF_FFFFL,
              buf.getLong(at + 6) & 0xFF_FFFF_FFFFL);
          buf.position(at + EntryLocation.SIZE);
        }
        int access = op == 2 ? 0 : buf.getShort() & 0xFFFF; // AccessId:uint16 (version 3)
        block.add(new NameEntry(new String(name, StandardCharsets.UTF_8), op == 2, length2,
            mtime, location, access));
      }
      assertEquals(end, buf.position());
      assertEquals(Checksums.crc32c(file, start, 8 + length), buf.getInt());
      blocks.add(block);
    }
    long total = buf.getLong();
    assertEquals(blocks.stream().mapToLong(List::size).sum(), total);
    assertEquals(FileFooter.MAGIC, buf.getInt());
    assertEquals(file.length - 4, buf.position());
    return blocks;
  }

  /** The bytes of one entry as the spec lays it out. */
  private static byte[] entryBytes(int op, String name, long length, long mtime) {
    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(1 + 2 + utf8.length + 16).put((byte) op)
        .putShort((short) utf8.length).put(utf8).putLong(length).putLong(mtime).array();
  }

  /** An entry of version 3 with its AccessId after it. */
  private static byte[] withAccess(byte[] entry, int access) {
    return ByteBuffer.allocate(entry.length + 2).put(entry).putShort((short) access).array();
  }

  /** The bytes of an Op 1 entry of version 3: the entry, its location, access id 0. */
  private static byte[] entryBytes(String name, long length, long mtime, int part, int flags,
      long offset, long entryLength) {
    return entryBytes(name, length, mtime, part, flags, offset, entryLength, 0);
  }

  /** The bytes of an Op 1 entry of version 3: the entry, its location, its access id. */
  private static byte[] entryBytes(String name, long length, long mtime, int part, int flags,
      long offset, long entryLength, int access) {
    byte[] head = entryBytes(1, name, length, mtime);
    ByteBuffer buf = ByteBuffer.allocate(head.length + EntryLocation.SIZE + 2).put(head);
    buf.put((byte) (part >>> 16)).putShort((short) part).put((byte) flags);
    buf.put((byte) (offset >>> 32)).putInt((int) offset);
    buf.put((byte) (entryLength >>> 32)).putInt((int) entryLength);
    return buf.putShort((short) access).array();
  }

  /** A names file of one block holding {@code entries} (raw bytes), checksummed as the spec says. */
  private static byte[] oneBlockFile(int count, byte[]... entries) throws IOException {
    java.io.ByteArrayOutputStream block = new java.io.ByteArrayOutputStream();
    for (byte[] entry : entries) {
      block.write(entry);
    }
    byte[] framed = ByteBuffer.allocate(8 + block.size()).putInt(count).putInt(block.size())
        .put(block.toByteArray()).array();
    ByteBuffer body = ByteBuffer.allocate(framed.length + 4 + 4 + 8);
    body.put(framed).putInt(Checksums.crc32c(framed, 0, framed.length)).putInt(0).putLong(count);
    return FormatTesting.sealed(FileKind.NAMES, ID, body.array());
  }

  @Test
  void layoutOfOneBlockMatchesTheSpec() throws Exception {
    // "a" is raw in part 0x010203 at 0x0405060708 (5 bytes after a 37-byte header).
    EntryLocation a = new EntryLocation(0x010203, 0, 0x0405060708L, 37 + 5 + 4);
    List<NameEntry> entries = List.of(NameEntry.present("a", 5, 1_600_000_000_123L, a, 0x0102),
        NameEntry.deletion("b/c"), new NameEntry("dé", false, 0, -1, null, 0xFFFF));
    write(entries);
    byte[] expected = oneBlockFile(3,
        entryBytes("a", 5, 1_600_000_000_123L, 0x010203, 0, 0x0405060708L, 46, 0x0102),
        entryBytes(2, "b/c", 0, 0), withAccess(entryBytes(3, "dé", 0, -1), 0xFFFF));
    assertArrayEquals(expected, bytes());
    assertEquals(List.of(entries), blocks(bytes()));
    assertEquals(entries, read(ID));
  }

  @Test
  void roundTripsManyBlocks() throws Exception {
    List<NameEntry> entries = entries(names(20_000, 1), 1);
    write(entries);
    byte[] file = bytes();
    FileFooter.check(file, FILE);
    List<List<NameEntry>> blocks = blocks(file);
    assertTrue(blocks.size() >= 4, "blocks: " + blocks.size());
    List<NameEntry> flat = new ArrayList<>();
    blocks.forEach(flat::addAll);
    assertEquals(entries, flat);
    assertEquals(entries, read(ID));
    assertTrue(entries.stream().anyMatch(NameEntry::deleted));
    assertTrue(entries.stream().anyMatch(e -> !e.deleted() && e.length() > (1L << 32)));
  }

  @Test
  void readersSharingTheBlocksStartAtTheBlockOfTheirFirstName() throws Exception {
    List<NameEntry> entries = entries(names(10_000, 2), 2);
    write(entries);
    NamesBlocks blocks = new NamesBlocks();
    assertEquals(entries, read(blocks, null), "a first pass reads every block");
    for (int i = 0; i < entries.size(); i += 1999) {
      String from = entries.get(i).name();
      List<NameEntry> read = read(blocks, from);
      List<NameEntry> expected = entries.subList(entries.size() - read.size(), entries.size());
      assertEquals(expected, read, "from " + from);
      assertTrue(expected.contains(entries.get(i)), "from " + from);
      assertTrue(read.size() < entries.size() - i + 2000, "from " + from + ": " + read.size());
    }
    // A block damaged since the first pass fails the reader that starts before it.
    byte[] file = bytes();
    file[file.length * 5 / 8] ^= 1;
    Files.write(tmp.resolve(FILE), file);
    String before = entries.get(entries.size() / 2).name();
    assertThrows(CorruptArchiveException.class, () -> read(blocks, before));
  }

  /** The entries a reader sharing {@code blocks} returns from {@code from} on, to the footer. */
  private List<NameEntry> read(NamesBlocks blocks, String from) throws IOException {
    List<NameEntry> entries = new ArrayList<>();
    try (NamesFileReader reader = new NamesFileReader(storage.open(FILE), FILE, ID, blocks,
        from)) {
      try {
        while (reader.hasNext()) {
          entries.add(reader.next());
        }
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
    }
    return entries;
  }

  @Test
  void roundTripsExtremeLengthsAndTimes() throws Exception {
    List<NameEntry> entries = List.of(NameEntry.present("a", Long.MAX_VALUE, Long.MIN_VALUE),
        NameEntry.present("b", 0, Long.MAX_VALUE), NameEntry.present("c", (1L << 40) - 1, 0),
        NameEntry.deletion("d"));
    write(entries);
    assertEquals(entries, read(ID));
  }

  @Test
  void roundTripsLongNamesAndOneNameBlocks() throws Exception {
    // Names of 4096 bytes: a block closes as soon as it reaches 64 KiB.
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      names.add(String.format("%04d", i) + "x".repeat(4092));
    }
    List<NameEntry> entries = entries(names, 2);
    write(entries);
    assertTrue(blocks(bytes()).size() >= 2);
    assertEquals(entries, read(ID));
    write(present("only"));
    assertEquals(List.of(present("only")), blocks(bytes()));
    assertEquals(present("only"), read(ID));
    write(List.of(NameEntry.deletion("only-a-deletion")));
    assertEquals(List.of(NameEntry.deletion("only-a-deletion")), read(ID));
  }

  @Test
  void emptyFileIsHeaderEndBlockTotalFooter() throws Exception {
    write(List.of());
    byte[] file = bytes();
    assertEquals(FileHeader.SIZE + 4 + 8 + FileFooter.SIZE, file.length);
    assertEquals(FileKind.NAMES.code(), file[4]);
    assertEquals(0, ByteBuffer.wrap(file).getInt(FileHeader.SIZE));
    assertEquals(0, ByteBuffer.wrap(file).getLong(FileHeader.SIZE + 4));
    FileFooter.check(file, FILE);
    assertEquals(List.of(), read(ID));
  }

  @Test
  void rejectsNamesOutOfOrderOrDuplicated() throws Exception {
    try (NamesFileWriter writer = new NamesFileWriter(storage.create(FILE, 0), ID)) {
      writer.add(NameEntry.present("b", 1, 1));
      assertThrows(IllegalArgumentException.class, () -> writer.add(NameEntry.present("a", 1, 1)));
      assertThrows(IllegalArgumentException.class, () -> writer.add(NameEntry.present("b", 1, 1)));
      // A deletion of a name already present in the segment is a repeat as well.
      assertThrows(IllegalArgumentException.class, () -> writer.add(NameEntry.deletion("b")));
      // UTF-8 byte order, not UTF-16 order: U+FFFD (EF BF BD) sorts before U+1F600 (F0 ...)
      // although its UTF-16 code unit is larger than the surrogate D83D.
      writer.add(NameEntry.deletion("\uFFFD"));
      writer.add(NameEntry.present("😀", 2, 2));
      assertThrows(IllegalArgumentException.class,
          () -> writer.add(NameEntry.present("\uFFFE", 3, 3)));
      writer.finish();
    }
    assertEquals(List.of(NameEntry.present("b", 1, 1), NameEntry.deletion("\uFFFD"),
        NameEntry.present("😀", 2, 2)), read(ID));
  }

  @Test
  void rejectsUnknownOpsAndMalformedEntriesEvenWithValidChecksums() throws Exception {
    byte[] good = withAccess(entryBytes(3, "a", 1, 2), 0);
    // The well-formed file reads.
    FormatTesting.put(storage, FILE, oneBlockFile(1, good));
    assertEquals(List.of(NameEntry.present("a", 1, 2)), read(ID));
    // A located entry: raw, its entry exactly header + length + trailer; LZ4, at most that.
    FormatTesting.put(storage, FILE, oneBlockFile(1, entryBytes("a", 10, 2, 7, 0, 99, 51)));
    assertEquals(List.of(NameEntry.present("a", 10, 2, new EntryLocation(7, 0, 99, 51))),
        read(ID));
    FormatTesting.put(storage, FILE, oneBlockFile(1, entryBytes("a", 10, 2, 7, 1, 99, 45)));
    assertEquals(Codec.LZ4, read(ID).get(0).location().codec());
    long[][] badLocations = {
        {7, 0, 99, 50}, {7, 0, 99, 52}, // raw, one byte short or long
        {7, 1, 99, 52}, {7, 1, 99, 40}, // LZ4 longer than raw, shorter than its framing
        {7, 2, 99, 51}, {7, 0x80, 99, 51}, // no such codec, a tombstone's flags
        {IndexRecord.MAX_PART + 1, 0, 99, 51}};
    for (long[] bad : badLocations) {
      FormatTesting.put(storage, FILE, oneBlockFile(1,
          entryBytes("a", 10, 2, (int) bad[0], (int) bad[1], bad[2], bad[3])));
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class, () -> read(ID),
          java.util.Arrays.toString(bad));
      assertTrue(e.getMessage().contains("bad location of 'a'"), e.getMessage());
    }
    // An Op 1 entry cut before the end of its location.
    byte[] cut = java.util.Arrays.copyOf(entryBytes("a", 10, 2, 7, 0, 99, 51), good.length + 11);
    FormatTesting.put(storage, FILE, oneBlockFile(1, cut));
    assertThrows(CorruptArchiveException.class, () -> read(ID));
    // An entry of version 3 without its access id.
    FormatTesting.put(storage, FILE, oneBlockFile(1, entryBytes(3, "a", 1, 2)));
    assertThrows(CorruptArchiveException.class, () -> read(ID));
    // Version 1 had no location and no Op 3.
    byte[] v1 = oneBlockFile(1, entryBytes(1, "a", 1, 2));
    v1[5] = 1;
    FormatTesting.put(storage, FILE, FormatTesting.reseal(v1));
    assertEquals(List.of(NameEntry.present("a", 1, 2)), read(ID));
    byte[] v1op3 = oneBlockFile(1, entryBytes(3, "a", 1, 2));
    v1op3[5] = 1;
    FormatTesting.put(storage, FILE, FormatTesting.reseal(v1op3));
    assertThrows(CorruptArchiveException.class, () -> read(ID));
    for (int op : new int[] {0, 4, 0x81, 0xFF}) {
      FormatTesting.put(storage, FILE, oneBlockFile(1, entryBytes(op, "a", 1, 2)));
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class, () -> read(ID),
          "op " + op);
      assertTrue(e.getMessage().contains("op " + op), e.getMessage());
    }
    // A deletion is exactly Op 2 with Length and MTimeMillis 0.
    for (long[] fields : new long[][] {{1, 0}, {0, 1}, {-1, -1}}) {
      FormatTesting.put(storage, FILE,
          oneBlockFile(1, entryBytes(2, "a", fields[0], fields[1])));
      assertThrows(CorruptArchiveException.class, () -> read(ID),
          "deletion with length " + fields[0] + " and mtime " + fields[1]);
    }
    // A present member cannot have a negative length.
    FormatTesting.put(storage, FILE, oneBlockFile(1, withAccess(entryBytes(3, "a", -1, 2), 0)));
    assertThrows(CorruptArchiveException.class, () -> read(ID));
    // A name length that runs past the block, a count that disagrees with the block's bytes.
    byte[] longName = good.clone();
    longName[2] = 20;
    FormatTesting.put(storage, FILE, oneBlockFile(1, longName));
    assertThrows(CorruptArchiveException.class, () -> read(ID));
    FormatTesting.put(storage, FILE, oneBlockFile(2, good));
    assertThrows(CorruptArchiveException.class, () -> read(ID));
    FormatTesting.put(storage, FILE, oneBlockFile(1, good, withAccess(entryBytes(3, "b", 1, 2),
        0)));
    assertThrows(CorruptArchiveException.class, () -> read(ID));
  }

  @Test
  void checksTheHeader() throws Exception {
    write(entries(names(10, 2), 2));
    assertThrows(CorruptArchiveException.class, () -> read(OTHER_ID));
    byte[] file = bytes();
    file[5] = (byte) (FileKind.NAMES.version() + 1);
    FormatTesting.put(storage, FILE, file);
    assertTrue(assertThrows(ArchiveVersionException.class, () -> read(ID)).getMessage()
        .contains("too new"));
  }

  @Test
  void everyTruncationIsDetected() throws Exception {
    write(entries(names(12, 3), 3));
    byte[] file = bytes();
    for (int length = 0; length < file.length; length++) {
      FormatTesting.put(storage, FILE, Arrays.copyOf(file, length));
      int n = length;
      assertThrows(CorruptArchiveException.class, () -> read(ID), () -> "cut at " + n);
    }
  }

  @Test
  void truncationOfAManyBlockFileIsDetected() throws Exception {
    write(entries(names(10_000, 4), 4));
    byte[] file = bytes();
    Random random = new Random(5);
    List<Integer> cuts = new ArrayList<>(List.of(0, 1, 23, 24, 25, 28, 32));
    for (int i = 1; i <= 12; i++) {
      cuts.add(file.length - i);
    }
    for (int i = 0; i < 40; i++) {
      cuts.add(random.nextInt(file.length));
    }
    for (int cut : cuts) {
      FormatTesting.put(storage, FILE, Arrays.copyOf(file, cut));
      assertThrows(CorruptArchiveException.class, () -> read(ID), () -> "cut at " + cut);
    }
  }

  @Test
  void appendedBytesAreDetected() throws Exception {
    write(entries(names(5, 6), 6));
    byte[] file = bytes();
    for (int extra = 1; extra < 10; extra++) {
      FormatTesting.put(storage, FILE, Arrays.copyOf(file, file.length + extra));
      assertThrows(CorruptArchiveException.class, () -> read(ID));
    }
  }

  @Test
  void everySingleBitFlipIsDetected() throws Exception {
    write(List.of(NameEntry.present("a", 1, 1_600_000_000_000L), NameEntry.deletion("b/c"),
        NameEntry.present("dé", 0, 0), NameEntry.present("e/f/g", 1 << 20, -5),
        NameEntry.deletion("日本"), NameEntry.present("😀", 77, 1)));
    byte[] file = bytes();
    for (long bit = 0; bit < 8L * file.length; bit++) {
      FormatTesting.put(storage, FILE, FormatTesting.flip(file, bit));
      try {
        read(ID);
        fail("bit " + bit + " flipped unnoticed");
      } catch (CorruptArchiveException | ArchiveVersionException e) {
        // expected
      } catch (HpfException e) {
        fail("bit " + bit + ": unexpected " + e, e);
      }
    }
  }

  @Test
  void blockChecksumIsCheckedBeforeItsNamesAreReturned() throws Exception {
    List<NameEntry> entries = entries(names(20_000, 8), 8);
    write(entries);
    byte[] file = bytes();
    List<List<NameEntry>> blocks = blocks(file);
    // Damage the last byte of the second block's entries: the first block's entries are
    // returned, then the reader stops with an error before returning any entry of the second.
    int secondStart = FileHeader.SIZE;
    ByteBuffer buf = ByteBuffer.wrap(file);
    secondStart += 8 + buf.getInt(FileHeader.SIZE + 4) + 4;
    int secondLength = buf.getInt(secondStart + 4);
    file[secondStart + 8 + secondLength - 1] ^= 1;
    FormatTesting.put(storage, FILE, file);
    List<NameEntry> seen = new ArrayList<>();
    try (NamesFileReader reader = new NamesFileReader(storage.open(FILE), FILE, ID)) {
      UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> {
        while (reader.hasNext()) {
          seen.add(reader.next());
        }
      });
      assertTrue(e.getCause() instanceof CorruptArchiveException, e.toString());
      assertTrue(e.getCause().getMessage().contains("names block checksum"),
          e.getCause().getMessage());
    }
    assertEquals(blocks.get(0), seen);
  }

  // ---- merging segments --------------------------------------------------------------------

  private void writeSegment(String file, List<NameEntry> entries) throws IOException {
    try (NamesFileWriter writer = new NamesFileWriter(storage.create(file, 0), ID)) {
      for (NameEntry entry : entries) {
        writer.add(entry);
      }
      writer.finish();
    }
  }

  private List<NameEntry> merge(List<String> files, boolean keepDeletions) throws IOException {
    List<NamesFileReader> readers = new ArrayList<>();
    for (String file : files) {
      readers.add(new NamesFileReader(storage.open(file), file, ID));
    }
    List<NameEntry> merged = new ArrayList<>();
    try (NamesMerge merge = new NamesMerge(readers, keepDeletions)) {
      merge.forEachRemaining(merged::add);
      assertFalse(merge.hasNext());
      assertThrows(NoSuchElementException.class, merge::next);
    }
    return merged;
  }

  @Test
  void mergeLetsTheNewestSegmentWin() throws Exception {
    String oldest = ArchiveLayout.names(1, 0);
    String middle = ArchiveLayout.names(2, 0);
    String newest = ArchiveLayout.names(3, 0);
    writeSegment(oldest, List.of(NameEntry.present("a", 1, 10), NameEntry.present("b", 2, 20),
        NameEntry.present("c", 3, 30), NameEntry.present("é", 4, 40)));
    writeSegment(middle, List.of(NameEntry.present("b", 22, 21), NameEntry.deletion("c"),
        NameEntry.present("d", 5, 50), NameEntry.deletion("é")));
    writeSegment(newest, List.of(NameEntry.deletion("a"), NameEntry.present("c", 33, 31),
        NameEntry.deletion("d"), NameEntry.present("zz", 6, 60)));
    List<String> all = List.of(oldest, middle, newest);
    // Listing: deletions hide what they name and are not returned themselves.
    assertEquals(List.of(NameEntry.present("b", 22, 21), NameEntry.present("c", 33, 31),
        NameEntry.present("zz", 6, 60)), merge(all, false));
    // Merging newer segments only: deletions are kept, to hide names in older segments.
    // (UTF-8 byte order: "zz" (7A 7A) before "é" (C3 A9).)
    assertEquals(List.of(NameEntry.deletion("a"), NameEntry.present("b", 22, 21),
        NameEntry.present("c", 33, 31), NameEntry.deletion("d"), NameEntry.present("zz", 6, 60),
        NameEntry.deletion("é")), merge(List.of(middle, newest), true));
    assertEquals(List.of(NameEntry.present("b", 22, 21), NameEntry.present("c", 33, 31),
        NameEntry.present("zz", 6, 60)), merge(List.of(middle, newest), false));
    // The order of the list is the age: reversed, the oldest entries win.
    assertEquals(List.of(NameEntry.present("a", 1, 10), NameEntry.present("b", 2, 20),
        NameEntry.present("c", 3, 30), NameEntry.present("d", 5, 50),
        NameEntry.present("zz", 6, 60), NameEntry.present("é", 4, 40)),
        merge(List.of(newest, middle, oldest), false));
    // One segment and no segment.
    assertEquals(List.of(NameEntry.present("b", 22, 21), NameEntry.present("d", 5, 50)),
        merge(List.of(middle), false));
    assertEquals(List.of(), merge(List.of(), false));
  }

  @Test
  void mergeOfRandomSegmentsMatchesAModel() throws Exception {
    Random random = new Random(9);
    List<String> universe = names(600, 9);
    java.util.TreeMap<String, NameEntry> model = new java.util.TreeMap<>(MemberNames.ORDER);
    List<String> files = new ArrayList<>();
    for (int segment = 0; segment < 6; segment++) {
      List<NameEntry> entries = new ArrayList<>();
      for (String name : universe) {
        if (random.nextInt(4) == 0) {
          entries.add(random.nextInt(3) == 0 ? NameEntry.deletion(name)
              : NameEntry.present(name, random.nextInt(1000), random.nextLong()));
        }
      }
      String file = ArchiveLayout.names(segment + 1, 0);
      writeSegment(file, entries);
      files.add(file);
      for (NameEntry entry : entries) {
        model.put(entry.name(), entry);
      }
    }
    List<NameEntry> expectedWithDeletions = new ArrayList<>(model.values());
    List<NameEntry> expected = expectedWithDeletions.stream().filter(e -> !e.deleted()).toList();
    assertEquals(expected, merge(files, false));
    assertEquals(expectedWithDeletions, merge(files, true));
    assertEquals(namesOf(expected).stream().sorted(MemberNames.ORDER).toList(),
        namesOf(merge(files, false)));
  }

  @Test
  void mergeReportsADamagedSegment() throws Exception {
    writeSegment(ArchiveLayout.names(1, 0), entries(names(50, 10), 10));
    writeSegment(ArchiveLayout.names(2, 0), entries(names(50, 11), 11));
    byte[] file = Files.readAllBytes(tmp.resolve(ArchiveLayout.names(2, 0)));
    file[FileHeader.SIZE + 12] ^= 4;
    FormatTesting.put(storage, ArchiveLayout.names(2, 0), file);
    // The merge reads each segment's first block when it starts: the damage surfaces there, as
    // the typed error itself (not wrapped).
    CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
        () -> merge(List.of(ArchiveLayout.names(1, 0), ArchiveLayout.names(2, 0)), false));
    assertTrue(e.getMessage().contains(ArchiveLayout.names(2, 0)), e.getMessage());
  }

  /** A block that declares more bytes than the file has left is refused before it is read. */
  @Test
  void aBlockLongerThanTheFileIsRefusedBeforeItIsAllocated() throws Exception {
    byte[] file = oneBlockFile(1, entryBytes(1, "a", 1, 2));
    // The block's ByteLength, right after the header and Count: 60 MiB in a file of 80 bytes.
    ByteBuffer.wrap(file).putInt(FileHeader.SIZE + 4, 60 << 20);
    FormatTesting.put(storage, FILE, file);
    CorruptArchiveException e = assertThrows(CorruptArchiveException.class, () -> read(ID));
    assertTrue(e.getMessage().contains("bad names block: 1 names in 62914560 bytes"),
        e.getMessage());
  }
}
