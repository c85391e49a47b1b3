package org.hpf.internal.format;

import static org.hpf.internal.format.FormatTesting.ID;
import static org.hpf.internal.format.FormatTesting.OTHER_ID;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.hpf.ArchiveVersionException;
import org.hpf.CorruptArchiveException;
import org.hpf.MemberAccess;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ForwardingOutput;
import org.hpf.internal.io.HadoopStorage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal: records appended in batches, read back; a torn last record is dropped, a bad
 * record with bytes after it is corruption.
 */
class JournalTest {
  private static final String FILE = "_journal-0000000001";

  /** An append on generation 7 with replace, as ArchiveWriter writes it. */
  static final JournalHeader HEADER =
      new JournalHeader(JournalHeader.APPEND, true, NameHasher.SHA256_128_ID, 7, 1234,
          128L << 20, 1L << 30);

  @TempDir Path tmp;
  private HadoopStorage storage;

  @BeforeEach
  void setUp() throws IOException {
    storage = FormatTesting.storage(tmp);
  }

  static List<JournalEntry> entries(int count, long seed) {
    Random random = new Random(seed);
    List<JournalEntry> entries = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String name = "dir" + random.nextInt(5) + "/fïle-" + i + "x".repeat(random.nextInt(30));
      IndexRecord record = new IndexRecord(NameHasher.MURMUR3_128.hash(name), random.nextInt(9),
          random.nextInt(2), random.nextInt(1 << 30), random.nextInt(1 << 20),
          random.nextInt(1 << 20)).withAccess((i + 1) % 3);
      entries.add(new JournalEntry(name, record, 1_700_000_000_000L + random.nextInt()));
    }
    return entries;
  }

  @Test
  void deletionsAreRecordsOfVersion3On() throws IOException {
    List<JournalEntry> entries = new ArrayList<>(entries(3, 11));
    entries.add(1, new JournalEntry("gone/file", IndexRecord.tombstone(
        NameHasher.SHA256_128.hash("gone/file")), IndexRecord.MTIME_UNKNOWN));
    write(entries, 2);
    JournalReader.Contents contents = read();
    assertEquals(entries, contents.entries());
    assertTrue(contents.entries().get(1).record().isTombstone());
    byte[] bytes = Files.readAllBytes(tmp.resolve(FILE));
    assertEquals(4, bytes[5], "a journal is written in version 4");
    // The same records as version 3 lays them out (no AccessId) read without access classes.
    java.io.ByteArrayOutputStream older = new java.io.ByteArrayOutputStream();
    older.write(bytes, 0, JournalReader.PREAMBLE);
    for (JournalEntry entry : entries) {
      older.write(withoutAccessId(JournalWriter.encode(entry)));
    }
    byte[] v3 = older.toByteArray();
    v3[5] = 3;
    put(v3);
    List<JournalEntry> unclassed = new ArrayList<>();
    for (JournalEntry entry : entries) {
      unclassed.add(new JournalEntry(entry.name(), entry.record().withAccess(0),
          entry.mtimeMillis()));
    }
    assertEquals(unclassed, read().entries());
    v3[5] = 2; // a version 2 journal knows no deletions: one there is damage
    put(v3);
    CorruptArchiveException e = assertThrows(CorruptArchiveException.class, this::read);
    assertTrue(e.getMessage().contains("deletion in a journal of version 2"), e.getMessage());
  }

  /** A version 4 member record as version 3 lays it out: without its AccessId. */
  private static byte[] withoutAccessId(byte[] record) {
    int payload = ByteBuffer.wrap(record).getInt() - 2;
    ByteBuffer older = ByteBuffer.allocate(4 + payload + 4).putInt(payload)
        .put(record, 4, payload);
    return older.putInt(Checksums.crc32c(older.array(), 0, 4 + payload)).array();
  }

  @Test
  void accessRecordsPrecedeTheRecordsThatUseThemAndAreChecked() throws Exception {
    List<JournalEntry> entries = entries(2, 5);
    MemberAccess setuid = new MemberAccess("r".repeat(400), "wheel", 04755);
    storage.delete(FILE);
    try (JournalWriter writer = new JournalWriter(storage.create(FILE, 0), ID, HEADER)) {
      writer.appendAccess(1, setuid);
      writer.append(entries.subList(0, 1));
      writer.appendAccess(2, new MemberAccess("", "", 0));
      writer.append(entries.subList(1, 2));
    }
    List<String> seen = new ArrayList<>();
    JournalReader.Scan scan;
    try (ArchiveInput in = storage.open(FILE)) {
      scan = JournalReader.scan(in, FILE, ID, new JournalReader.Visitor() {
        @Override
        public void entry(JournalEntry entry) {
          seen.add(entry.name() + " " + entry.record().access());
        }

        @Override
        public void access(int id, MemberAccess access) {
          seen.add(id + " " + access);
        }
      });
    }
    assertEquals(List.of("1 " + setuid, entries.get(0).name() + " "
        + entries.get(0).record().access(), "2 " + new MemberAccess("", "", 0),
        entries.get(1).name() + " " + entries.get(1).record().access()), seen);
    assertEquals(2, scan.entries(), "access records are not members");
    // Length, mark 0xFFFF, id, Owner:String16, Group:String16, Permission, checksum.
    byte[] access = JournalWriter.encodeAccess(1, setuid);
    ByteBuffer buf = ByteBuffer.wrap(access);
    assertEquals(access.length - 8, buf.getInt());
    assertEquals(0xFFFF, buf.getShort() & 0xFFFF);
    assertEquals(1, buf.getShort());
    assertEquals(400, buf.getShort());
    buf.position(buf.position() + 400);
    assertEquals(5, buf.getShort());
    buf.position(buf.position() + 5);
    assertEquals(04755, buf.getShort());
    assertEquals(Checksums.crc32c(access, 0, access.length - 4), buf.getInt());
    byte[] file = bytes();
    int first = JournalReader.PREAMBLE;
    // A torn access record at the end is dropped with the records after it never written.
    byte[] torn = Arrays.copyOf(file, first + access.length - 3);
    put(torn);
    assertEquals(List.of(), read().entries());
    assertTrue(read().tornTail());
    // Damage in an access record with records after it is corruption, not a torn tail.
    byte[] flipped = file.clone();
    flipped[first + 10 + 100] ^= 0x10;
    put(flipped);
    assertThrows(CorruptArchiveException.class, this::read);
    // Permission bits above 07777 are corruption even under a valid checksum.
    byte[] high = JournalWriter.encodeAccess(1, setuid);
    ByteBuffer.wrap(high).putShort(high.length - 6, (short) 010755);
    ByteBuffer.wrap(high).putInt(high.length - 4, Checksums.crc32c(high, 0, high.length - 4));
    byte[] withHigh = Arrays.copyOf(file, file.length - access.length + high.length);
    System.arraycopy(file, 0, withHigh, 0, first);
    System.arraycopy(high, 0, withHigh, first, high.length);
    System.arraycopy(file, first + access.length, withHigh, first + high.length,
        file.length - first - access.length);
    put(withHigh);
    CorruptArchiveException e = assertThrows(CorruptArchiveException.class, this::read);
    assertTrue(e.getMessage().contains("bad access record"), e.getMessage());
  }

  /** Writes the entries in batches; returns the offset where each record starts. */
  /**
   * A batch whose write or sync failed may have left part of a record: nothing is appended
   * after it, so the journal never holds a record behind a torn one.
   */
  @Test
  void nothingIsAppendedAfterAFailedWrite() throws IOException {
    List<JournalEntry> entries = entries(6, 5);
    boolean[] failSync = {false};
    ArchiveOutput failing = new ForwardingOutput(storage.create(FILE, 0)) {
      @Override
      public void sync() throws IOException {
        if (failSync[0]) {
          failSync[0] = false;
          throw new IOException("sync failed");
        }
        super.sync();
      }
    };
    JournalWriter writer = new JournalWriter(failing, ID, HEADER);
    writer.append(entries.subList(0, 2));
    failSync[0] = true;
    assertThrows(IOException.class, () -> writer.append(entries.subList(2, 4)));
    long length = JournalReader.PREAMBLE;
    for (JournalEntry written : entries.subList(0, 4)) {
      length += JournalWriter.encode(written).length; // the failed batch reached the stream
    }
    IOException refused = assertThrows(IOException.class,
        () -> writer.append(entries.subList(4, 6)));
    assertEquals("sync failed", refused.getCause().getMessage());
    assertThrows(IOException.class, () -> writer.appendAccess(1,
        new MemberAccess("alice", "staff", 0640)));
    writer.close();
    assertEquals(length, bytes().length, "bytes were appended after the failed batch");
    assertEquals(entries.subList(0, 4), read().entries());
  }

  private long[] write(List<JournalEntry> entries, int batch) throws IOException {
    storage.delete(FILE);
    long[] starts = new long[entries.size() + 1];
    long at = JournalReader.PREAMBLE;
    try (JournalWriter writer = new JournalWriter(storage.create(FILE, 0), ID, HEADER)) {
      for (int i = 0; i < entries.size(); i += batch) {
        writer.append(entries.subList(i, Math.min(entries.size(), i + batch)));
      }
      writer.append(List.of());
    }
    for (int i = 0; i < entries.size(); i++) {
      starts[i] = at;
      at += JournalWriter.encode(entries.get(i)).length;
    }
    starts[entries.size()] = at;
    assertEquals(at, Files.size(tmp.resolve(FILE)));
    return starts;
  }

  private JournalReader.Contents read() throws IOException {
    try (ArchiveInput in = storage.open(FILE)) {
      return JournalReader.read(in, FILE, ID);
    }
  }

  private byte[] bytes() throws IOException {
    return Files.readAllBytes(tmp.resolve(FILE));
  }

  private void put(byte[] bytes) throws IOException {
    FormatTesting.put(storage, FILE, bytes);
  }

  @Test
  void layoutMatchesTheSpec() throws Exception {
    JournalEntry entry = entries(1, 1).get(0);
    byte[] encoded = JournalWriter.encode(entry);
    byte[] name = entry.name().getBytes(StandardCharsets.UTF_8);
    int payload = 2 + name.length + IndexRecord.SIZE + 8 + 2;
    assertEquals(4 + payload + 4, encoded.length);
    ByteBuffer buf = ByteBuffer.wrap(encoded);
    assertEquals(payload, buf.getInt());
    assertEquals(name.length, buf.getShort());
    byte[] readName = new byte[name.length];
    buf.get(readName);
    assertEquals(entry.name(), new String(readName, StandardCharsets.UTF_8));
    assertEquals(entry.record().withAccess(0),
        IndexRecord.read(encoded, buf.position(), "j", 0));
    buf.position(buf.position() + IndexRecord.SIZE);
    assertEquals(entry.mtimeMillis(), buf.getLong());
    assertEquals(entry.record().access(), buf.getShort()); // AccessId
    assertEquals(Checksums.crc32c(encoded, 0, 4 + payload), buf.getInt());

    write(List.of(entry), 1);
    byte[] file = bytes();
    assertEquals(FileHeader.SIZE + JournalHeader.SIZE + encoded.length, file.length);
    assertEquals(54, JournalReader.PREAMBLE);
    assertEquals(Arrays.toString(FileHeader.bytes(FileKind.JOURNAL, ID)),
        Arrays.toString(Arrays.copyOf(file, FileHeader.SIZE)));
    // JournalHeader --> Operation:uint8, Flags:uint8 (bit 0 replace, bit 1 algorithm 2),
    //                   BaseGeneration:int64,
    //                   BucketCapacity:int32, BlockSize:int64, PartSize:int64   (30 bytes)
    ByteBuffer header = ByteBuffer.wrap(file, FileHeader.SIZE, JournalHeader.SIZE);
    assertEquals(2, header.get()); // append
    assertEquals(1 | 2, header.get()); // replace, hash algorithm 2
    assertEquals(7, header.getLong());
    assertEquals(1234, header.getInt());
    assertEquals(128L << 20, header.getLong());
    assertEquals(1L << 30, header.getLong());
    assertEquals(JournalReader.PREAMBLE, header.position());
    assertArrayEquals(encoded, Arrays.copyOfRange(file, JournalReader.PREAMBLE, file.length));
    JournalReader.Contents contents = read();
    assertEquals(HEADER, contents.header());
    assertEquals(ID, contents.archiveId());
    assertEquals(List.of(entry), contents.entries());
  }

  @Test
  void headerFieldsRoundTrip() throws Exception {
    List<JournalHeader> headers = List.of(
        new JournalHeader(JournalHeader.CREATE, false, NameHasher.SHA256_128_ID, 0, 1, 1, 1),
        new JournalHeader(JournalHeader.CREATE, false, NameHasher.MURMUR3_128_ID, 0, 1, 1, 1),
        new JournalHeader(JournalHeader.APPEND, false, NameHasher.MURMUR3_128_ID, 1,
            Integer.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE),
        new JournalHeader(JournalHeader.APPEND, true, NameHasher.SHA256_128_ID, Long.MAX_VALUE,
            42, 1 << 20, 4096));
    for (JournalHeader header : headers) {
      byte[] bytes = header.toBytes();
      assertEquals(JournalHeader.SIZE, bytes.length);
      assertEquals(header.operation(), bytes[0]);
      assertEquals((header.replace() ? 1 : 0)
          | (header.hashAlgorithm() == NameHasher.SHA256_128_ID ? 2 : 0), bytes[1]);
      assertEquals(header, JournalHeader.read(ByteBuffer.wrap(bytes), "j", 2));
      storage.delete(FILE);
      try (JournalWriter writer = new JournalWriter(storage.create(FILE, 0), ID, header)) {
        writer.append(entries(2, 3));
      }
      JournalReader.Contents contents = read();
      assertEquals(header, contents.header());
      assertEquals(entries(2, 3), contents.entries());
    }
  }

  @Test
  void rejectsImpossibleHeaders() throws Exception {
    byte[] good = HEADER.toBytes();
    // Operation 1 or 2; Flags only bits 0 and 1; BaseGeneration >= 0; capacity, sizes >= 1.
    List<java.util.function.Consumer<ByteBuffer>> damages = List.of(
        b -> b.put(0, (byte) 0), b -> b.put(0, (byte) 3), b -> b.put(0, (byte) 0xFF),
        b -> b.put(1, (byte) 4), b -> b.put(1, (byte) 0x81),
        b -> b.putLong(2, -1), b -> b.putLong(2, Long.MIN_VALUE),
        b -> b.putInt(10, 0), b -> b.putInt(10, -5),
        b -> b.putLong(14, 0), b -> b.putLong(14, -1),
        b -> b.putLong(22, 0), b -> b.putLong(22, Long.MIN_VALUE));
    for (int i = 0; i < damages.size(); i++) {
      byte[] bad = good.clone();
      damages.get(i).accept(ByteBuffer.wrap(bad));
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> JournalHeader.read(ByteBuffer.wrap(bad), "j", 2), "damage " + i);
      assertTrue(e.getMessage().contains("bad journal header"), e.getMessage());
      // The same through the reader of a whole journal.
      write(entries(3, 4), 3);
      byte[] file = bytes();
      System.arraycopy(bad, 0, file, FileHeader.SIZE, JournalHeader.SIZE);
      put(file);
      assertThrows(CorruptArchiveException.class, this::read, "damage " + i);
    }
  }

  @Test
  void roundTripsInBatches() throws Exception {
    for (int batch : new int[] {1, 3, 100}) {
      List<JournalEntry> entries = entries(57, batch);
      long[] starts = write(entries, batch);
      JournalReader.Contents contents = read();
      assertEquals(entries, contents.entries());
      assertFalse(contents.tornTail());
      assertEquals(starts[entries.size()], contents.validLength());
    }
  }

  @Test
  void headerOnlyAndDamagedHeader() throws Exception {
    write(List.of(), 1);
    JournalReader.Contents empty = read();
    assertEquals(List.of(), empty.entries());
    assertFalse(empty.tornTail());
    assertEquals(HEADER, empty.header());
    assertEquals(JournalReader.PREAMBLE, empty.validLength());
    byte[] header = bytes();
    assertEquals(JournalReader.PREAMBLE, header.length);
    // Cut anywhere before the end of the journal header: nothing was journaled.
    for (int length = 0; length < JournalReader.PREAMBLE; length++) {
      put(Arrays.copyOf(header, length));
      assertThrows(CorruptArchiveException.class, this::read, "cut at " + length);
    }
    put(header);
    try (ArchiveInput in = storage.open(FILE)) {
      assertThrows(CorruptArchiveException.class, () -> JournalReader.read(in, FILE, OTHER_ID));
    }
    byte[] newer = header.clone();
    newer[5] = (byte) (FileKind.JOURNAL.version() + 1);
    put(newer);
    assertThrows(ArchiveVersionException.class, this::read);
    // A version 1 journal knows neither flag bit 1 nor hash algorithm 2: flag bit 1 there is
    // damage, and without it its records are hash algorithm 1.
    byte[] older = header.clone();
    older[5] = 1;
    put(older);
    assertThrows(CorruptArchiveException.class, this::read);
    older[FileHeader.SIZE + 1] = 1;
    put(older);
    assertEquals(NameHasher.MURMUR3_128_ID, read().header().hashAlgorithm());
    byte[] part = header.clone();
    System.arraycopy(FileHeader.bytes(FileKind.PART, ID), 0, part, 0, FileHeader.SIZE);
    put(part);
    assertTrue(assertThrows(CorruptArchiveException.class, this::read).getMessage()
        .contains("expected kind"));
  }

  @Test
  void tornLastRecordIsDroppedAtEveryCut() throws Exception {
    List<JournalEntry> entries = entries(6, 11);
    long[] starts = write(entries, 2);
    byte[] file = bytes();
    int last = entries.size() - 1;
    // Cut exactly at the start of the last record: a clean journal of the others.
    put(Arrays.copyOf(file, (int) starts[last]));
    JournalReader.Contents clean = read();
    assertEquals(entries.subList(0, last), clean.entries());
    assertFalse(clean.tornTail());
    // Cut at every byte inside the last record.
    for (long cut = starts[last] + 1; cut < starts[last + 1]; cut++) {
      put(Arrays.copyOf(file, (int) cut));
      JournalReader.Contents contents = read();
      assertEquals(entries.subList(0, last), contents.entries(), "cut at " + cut);
      assertTrue(contents.tornTail(), "cut at " + cut);
      assertEquals(starts[last], contents.validLength(), "cut at " + cut);
    }
  }

  @Test
  void lastRecordFailingItsChecksumIsATornWrite() throws Exception {
    List<JournalEntry> entries = entries(5, 12);
    long[] starts = write(entries, 5);
    byte[] file = bytes();
    int last = entries.size() - 1;
    // Every bit after the length fields (name, record, mtime, checksum) of the last record.
    int nameLength = entries.get(last).name().getBytes(StandardCharsets.UTF_8).length;
    for (long bit = 8 * (starts[last] + 6); bit < 8 * starts[last + 1]; bit++) {
      put(FormatTesting.flip(file, bit));
      JournalReader.Contents contents = read();
      assertEquals(entries.subList(0, last), contents.entries(), "bit " + bit);
      assertTrue(contents.tornTail());
      assertEquals(starts[last], contents.validLength());
    }
    // The length fields of the last record: dropped as torn or reported, never misread.
    for (long bit = 8 * starts[last]; bit < 8 * (starts[last] + 6); bit++) {
      put(FormatTesting.flip(file, bit));
      try {
        JournalReader.Contents contents = read();
        assertEquals(entries.subList(0, last), contents.entries(), "bit " + bit);
        assertTrue(contents.tornTail());
      } catch (CorruptArchiveException expected) {
        // also acceptable: the reader cannot tell this from a bad record with bytes after it
      }
    }
    assertTrue(nameLength > 0);
  }

  @Test
  void tornLastRecordFollowedByZerosIsDroppedAtEveryCut() throws Exception {
    List<JournalEntry> entries = entries(6, 15);
    long[] starts = write(entries, 2);
    byte[] file = bytes();
    int last = entries.size() - 1;
    for (long cut = starts[last]; cut < starts[last + 1]; cut++) {
      for (int zeros : new int[] {1, (int) (starts[last + 1] - cut), 200}) {
        byte[] torn = Arrays.copyOf(Arrays.copyOf(file, (int) cut), (int) cut + zeros);
        put(torn);
        JournalReader.Contents contents = read();
        assertEquals(entries.subList(0, last), contents.entries(), "cut at " + cut);
        assertTrue(contents.tornTail(), "cut at " + cut);
        assertEquals(starts[last], contents.validLength(), "cut at " + cut);
        torn[torn.length - 1] = 7; // a byte after the zeros: written later, so not torn
        put(torn);
        if (cut + zeros > starts[last + 1]) {
          assertThrows(CorruptArchiveException.class, this::read, "cut at " + cut);
        }
      }
    }
  }

  @Test
  void aHeaderThatNeverBecameDurableHoldsNothing() throws Exception {
    write(entries(2, 16), 2);
    byte[] file = bytes();
    for (int cut = 0; cut < JournalReader.PREAMBLE; cut++) {
      byte[] torn = Arrays.copyOf(Arrays.copyOf(file, cut), JournalReader.PREAMBLE + 64);
      put(Arrays.copyOf(file, cut));
      assertTrue(headerIsTorn(), "cut at " + cut);
      put(torn);
      // A torn header that still parses (its cut fell in zero bytes) is not torn: then its
      // journal is read, and zeros follow it.
      boolean parses;
      try {
        read();
        parses = true;
      } catch (CorruptArchiveException | ArchiveVersionException e) {
        parses = false;
      }
      assertEquals(!parses, headerIsTorn(), "cut at " + cut + " followed by zeros");
      torn[torn.length - 1] = 1;
      put(torn);
      assertFalse(headerIsTorn() && parses, "cut at " + cut);
      if (!parses) {
        assertFalse(headerIsTorn(), "cut at " + cut + " followed by a record's bytes");
      }
    }
    put(file);
    assertFalse(headerIsTorn());
  }

  private boolean headerIsTorn() throws IOException {
    try (ArchiveInput in = storage.open(FILE)) {
      return JournalReader.headerIsTorn(in, FILE);
    }
  }

  @Test
  void badRecordFollowedByMoreRecordsIsCorruption() throws Exception {
    List<JournalEntry> entries = entries(8, 13);
    long[] starts = write(entries, 3);
    byte[] file = bytes();
    // Every single bit of every record but the last.
    assertEquals(JournalReader.PREAMBLE, starts[0]);
    for (long bit = 8L * JournalReader.PREAMBLE; bit < 8 * starts[entries.size() - 1]; bit++) {
      put(FormatTesting.flip(file, bit));
      long at = bit;
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class, this::read,
          () -> "bit " + at + " (byte " + at / 8 + ", records start at "
              + Arrays.toString(starts) + ")");
      assertTrue(e.getMessage().contains(FILE), e.getMessage());
    }
  }

  @Test
  void garbageAfterTheRecordsIsCorruptionOrATornTail() throws Exception {
    List<JournalEntry> entries = entries(4, 14);
    write(entries, 4);
    byte[] file = bytes();
    // Zeros after the records: a length that reached the disk before its data (power loss).
    put(Arrays.copyOf(file, file.length + 20));
    JournalReader.Contents zeros = read();
    assertEquals(entries, zeros.entries());
    assertTrue(zeros.tornTail());
    assertEquals(file.length, zeros.validLength());
    // Anything else after the zeros was written after them: corruption.
    byte[] late = Arrays.copyOf(file, file.length + 20);
    late[late.length - 1] = 1;
    put(late);
    assertThrows(CorruptArchiveException.class, this::read);
    // Fewer than 4 trailing bytes: a torn length field.
    put(Arrays.copyOf(file, file.length + 3));
    JournalReader.Contents contents = read();
    assertEquals(entries, contents.entries());
    assertTrue(contents.tornTail());
    assertEquals(file.length, contents.validLength());
  }
}
