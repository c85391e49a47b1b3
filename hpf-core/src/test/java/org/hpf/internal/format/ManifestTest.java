package org.hpf.internal.format;

import static org.hpf.internal.format.FormatTesting.ID;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hpf.CorruptArchiveException;
import org.hpf.MemberAccess;
import org.hpf.internal.format.Manifest.Layer;
import org.hpf.internal.format.Manifest.NamesSegment;
import org.hpf.internal.format.Manifest.PartInfo;
import org.hpf.internal.io.HadoopStorage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manifest: round trip through storage, its byte layout (index layers, names segments, part
 * statistics), and rejection of bad bodies.
 */
class ManifestTest {
  @TempDir Path tmp;

  /** A base directory of two buckets (71 bytes of body) and a delta's of one (38 bytes). */
  static final DirectoryFile BASE = new DirectoryFile(1, List.of(
      new DirectoryFile.BucketRef(1, 1, 0, 5, 100, 1000),
      new DirectoryFile.BucketRef(1, 0, 0, 0, 0, 0)), new int[] {0, 1});
  static final DirectoryFile DELTA = new DirectoryFile(0, List.of(
      new DirectoryFile.BucketRef(0, 3, 0, 2, 50, 300)), new int[] {0});

  /** Two index layers (base and a delta), two names segments, {@code parts} parts. */
  static Manifest sample(int parts) {
    return sample(parts, 2, 2);
  }

  static Manifest sample(int parts, int layerCount, int segmentCount) {
    List<PartInfo> list = new ArrayList<>();
    for (int i = 0; i < parts; i++) {
      list.add(new PartInfo(i, 1000L * i + 36, 3L * i, 500L * i));
    }
    List<Layer> layers = new ArrayList<>();
    for (int i = 0; i < layerCount; i++) {
      layers.add(Layer.inline(i == 0 ? BASE : DELTA, 12345 - 100L * i));
    }
    List<NamesSegment> segments = new ArrayList<>();
    for (int i = 0; i < segmentCount; i++) {
      segments.add(new NamesSegment(ArchiveLayout.names(1 + 2L * i, i), 12000 + 7L * i));
    }
    return new Manifest(ID, 3, 1_700_000_000_123L, NameHasher.MURMUR3_128_ID, 12345, 6789012345L,
        456789, 100, 128L << 20, 1L << 30, layers, segments, list, ACCESSES,
        Manifest.idsAbove(list) + FLOOR_ABOVE_PARTS, COMMIT_ID, BASE_COMMIT_ID);
  }

  /** The samples' floor lies this far above their parts: a writer died holding those ids. */
  private static final int FLOOR_ABOVE_PARTS = 3;
  private static final long COMMIT_ID = 0x0123456789ABCDEFL;
  private static final long BASE_COMMIT_ID = 0x7EDCBA9876543210L;
  /**
   * Bytes after the access classes: PartIdFloor:int32, CommitId:int64 (version 5),
   * BaseCommitId:int64 (version 6).
   */
  private static final int TAIL_BYTES = 4 + 8 + 8;

  /** Two access classes: a setuid file of a long-named owner, and a sticky one. */
  static final List<MemberAccess> ACCESSES = List.of(
      new MemberAccess("o".repeat(300), "wheel", 04755), new MemberAccess("ä", "", 01644));
  /** Bytes of {@link #ACCESSES}: count, then per class two String16 and a uint16. */
  static final int ACCESS_BYTES = 4 + (2 + 300 + 2 + 5 + 2) + (2 + 2 + 2 + 0 + 2);

  /** Offset of LayerCount: header and the fixed fields before it. */
  private static final int LAYER_COUNT_AT = FileHeader.SIZE + 8 + 8 + 1 + 8 + 8 + 8 + 4 + 8 + 8;

  private static Manifest parse(byte[] file) throws Exception {
    ByteBuffer body = SealedFile.check(file, "m", FileKind.MANIFEST, ID);
    return Manifest.parse(ID, body, "m", FileKind.MANIFEST.version());
  }

  @Test
  void roundTripsThroughStorage() throws Exception {
    HadoopStorage storage = FormatTesting.storage(tmp);
    storage.mkdirs(Manifest.DIR);
    long generation = 0;
    for (int parts : new int[] {0, 1, 7, 1000}) {
      for (int layers : new int[] {1, 2, 5}) {
        for (int segments : new int[] {0, 1, 3}) {
          Manifest sample = sample(parts, layers, segments);
          generation++;
          Manifest manifest = new Manifest(ID, generation, sample.commitTimeMillis(),
              sample.hashAlgorithm(), sample.fileCount(), sample.originalBytes(),
              sample.storedBytes(), sample.bucketCapacity(), sample.blockSize(),
              sample.partSize(), sample.layers(), sample.namesSegments(), sample.parts(),
              sample.accesses().subList(0, parts % 3));
          String name = Manifest.fileName(generation);
          FormatTesting.put(storage, name, manifest.toBytes());
          ByteBuffer body = SealedFile.read(storage, name, FileKind.MANIFEST, null);
          assertEquals(manifest, Manifest.parse(ID, body, name, FileKind.MANIFEST.version()));
          assertEquals(manifest, Manifest.read(storage, generation));
        }
      }
    }
  }

  @Test
  void readChecksTheGenerationItWasAskedFor() throws Exception {
    HadoopStorage storage = FormatTesting.storage(tmp);
    storage.mkdirs(Manifest.DIR);
    // Generation 3's manifest stored under the name of generation 4.
    FormatTesting.put(storage, Manifest.fileName(4), sample(2).toBytes());
    CorruptArchiveException e =
        assertThrows(CorruptArchiveException.class, () -> Manifest.read(storage, 4));
    assertTrue(e.getMessage().contains("manifest says generation 3"), e.getMessage());
    assertEquals(sample(2), parse(sample(2).toBytes()));
  }

  @Test
  void readsTheDirectoryOfEveryLayerOldestFirst() throws Exception {
    HadoopStorage storage = FormatTesting.storage(tmp);
    // A manifest of version 2 carries them: nothing is read.
    assertEquals(List.of(BASE, DELTA), sample(1, 2, 1).readDirectories(storage));
    // One of version 1 names directory files.
    FormatTesting.put(storage, ArchiveLayout.directory(1), BASE.toBytes(ID));
    FormatTesting.put(storage, ArchiveLayout.directory(3), DELTA.toBytes(ID));
    Manifest sample = sample(1, 2, 1);
    Manifest manifest = new Manifest(ID, 3, 1, 1, 1, 1, 1, 1, 1, 1,
        List.of(new Layer(ArchiveLayout.directory(1), 5), new Layer(ArchiveLayout.directory(3),
            2)), sample.namesSegments(), sample.parts());
    assertEquals(List.of(BASE, DELTA), manifest.readDirectories(storage));
    // A directory of another archive is refused.
    FormatTesting.put(storage, ArchiveLayout.directory(3), DELTA.toBytes(FormatTesting.OTHER_ID));
    assertThrows(CorruptArchiveException.class, () -> manifest.readDirectories(storage));
    // And such a manifest cannot be written as version 2 before its directories are read.
    assertThrows(IllegalStateException.class, manifest::toBytes);
  }

  @Test
  void aVersion1ManifestNamesItsDirectoryFiles() throws Exception {
    // Version 1: Layer --> DirectoryFile:String16, Records:int64.
    Manifest sample = sample(1, 1, 0);
    java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
    java.io.DataOutputStream data = new java.io.DataOutputStream(body);
    data.writeLong(3);
    data.writeLong(7);
    data.writeByte(1);
    data.writeLong(10);
    data.writeLong(20);
    data.writeLong(30);
    data.writeInt(100);
    data.writeLong(1 << 20);
    data.writeLong(1 << 30);
    data.writeInt(1);
    data.writeShort(20);
    data.write(ArchiveLayout.directory(1).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    data.writeLong(10);
    data.writeInt(0);
    data.writeInt(0);
    Manifest parsed = Manifest.parse(ID, ByteBuffer.wrap(body.toByteArray()), "m", 1);
    assertEquals(List.of(new Layer(ArchiveLayout.directory(1), 10)), parsed.layers());
    assertEquals(sample.archiveId(), parsed.archiveId());
  }

  @Test
  void rejectsBadInlineDirectories() throws Exception {
    byte[] file = sample(1, 1, 0).toBytes();
    int lengthAt = LAYER_COUNT_AT + 4 + 8;
    assertEquals(71, ByteBuffer.wrap(file).getInt(lengthAt));
    for (int length : new int[] {-1, 0, 70, 72, 1000, Integer.MAX_VALUE}) {
      byte[] bad = file.clone();
      ByteBuffer.wrap(bad).putInt(lengthAt, length);
      assertThrows(CorruptArchiveException.class, () -> parse(FormatTesting.reseal(bad)),
          "length " + length);
    }
    // A slot pointing at no bucket is caught by the directory's own checks.
    byte[] bad = file.clone();
    ByteBuffer.wrap(bad).putInt(lengthAt + 4 + 71 - 4, 5);
    CorruptArchiveException e =
        assertThrows(CorruptArchiveException.class, () -> parse(FormatTesting.reseal(bad)));
    assertTrue(e.getMessage().contains("directory of layer 0"), e.getMessage());
  }

  @Test
  void roundTripsExtremeValuesAndNonAsciiNames() throws Exception {
    Manifest manifest = new Manifest(ID, Long.MAX_VALUE, Long.MIN_VALUE, 1, Long.MAX_VALUE, -1,
        0, Integer.MAX_VALUE, 0, Long.MAX_VALUE,
        List.of(Layer.inline(BASE, Long.MAX_VALUE), Layer.inline(DELTA, 0)),
        List.of(new NamesSegment("names-日本", Long.MAX_VALUE), new NamesSegment("😀", 0)),
        List.of(new PartInfo(Integer.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MIN_VALUE),
            new PartInfo(0, 0, 0, 0)));
    assertEquals(manifest, parse(manifest.toBytes()));
  }

  @Test
  void layoutMatchesTheSpec() throws Exception {
    byte[] file = sample(2).toBytes();
    ByteBuffer buf = ByteBuffer.wrap(file);
    assertEquals(FileKind.MANIFEST.code(), file[4]);
    buf.position(FileHeader.SIZE);
    assertEquals(3, buf.getLong()); // Generation
    assertEquals(1_700_000_000_123L, buf.getLong()); // CommitTimeMillis
    assertEquals(1, buf.get()); // HashAlgorithm
    assertEquals(12345, buf.getLong()); // FileCount
    assertEquals(6789012345L, buf.getLong()); // OriginalBytes
    assertEquals(456789, buf.getLong()); // StoredBytes
    assertEquals(100, buf.getInt()); // BucketCapacity
    assertEquals(128L << 20, buf.getLong()); // BlockSize
    assertEquals(1L << 30, buf.getLong()); // PartSize
    assertEquals(LAYER_COUNT_AT, buf.position());
    assertEquals(2, buf.getInt()); // LayerCount
    assertEquals(12345, buf.getLong()); // Layer: Records
    assertEquals(71, buf.getInt()); //        DirectoryLength
    assertEquals(BASE, DirectoryFile.parse(buf.slice(buf.position(), 71), "d")); // the body
    byte[] baseFile = BASE.toBytes(ID); // as a directory file holds it, between header and footer
    assertArrayEquals(java.util.Arrays.copyOfRange(baseFile, FileHeader.SIZE,
        baseFile.length - FileFooter.SIZE), java.util.Arrays.copyOfRange(file, buf.position(),
        buf.position() + 71));
    buf.position(buf.position() + 71);
    assertEquals(12245, buf.getLong());
    assertEquals(38, buf.getInt());
    buf.position(buf.position() + 38);
    assertEquals(2, buf.getInt()); // SegmentCount
    assertEquals("names-0000000001-0", string16(buf)); // Segment: NamesFile
    assertEquals(12000, buf.getLong()); //          Entries
    assertEquals("names-0000000003-1", string16(buf));
    assertEquals(12007, buf.getLong());
    assertEquals(2, buf.getInt()); // PartCount
    assertEquals(0, buf.getInt()); // Part: PartId
    assertEquals(36, buf.getLong()); //     Length
    assertEquals(0, buf.getLong()); //      LiveEntries
    assertEquals(0, buf.getLong()); //      LiveBytes
    assertEquals(1, buf.getInt());
    assertEquals(1036, buf.getLong());
    assertEquals(3, buf.getLong());
    assertEquals(500, buf.getLong());
    assertEquals(2, buf.getInt()); // AccessCount
    assertEquals("o".repeat(300), string16(buf)); // Access: Owner
    assertEquals("wheel", string16(buf)); //         Group
    assertEquals(04755, buf.getShort()); //          Permission
    assertEquals("ä", string16(buf));
    assertEquals("", string16(buf));
    assertEquals(01644, buf.getShort());
    assertEquals(2 + FLOOR_ABOVE_PARTS, buf.getInt()); // PartIdFloor
    assertEquals(COMMIT_ID, buf.getLong()); // CommitId
    assertEquals(BASE_COMMIT_ID, buf.getLong()); // BaseCommitId
    assertEquals(file.length - FileFooter.SIZE, buf.position());
    FileFooter.check(file, "m");
    // Part: 4 + 8 + 8 + 8 bytes; Layer: 8 + 4 + the body; Segment: String16 + 8.
    assertEquals(LAYER_COUNT_AT + 4 + (12 + 71) + (12 + 38) + 4 + 2 * (2 + 18 + 8) + 4 + 2 * 28
        + ACCESS_BYTES + TAIL_BYTES + FileFooter.SIZE, file.length);
  }

  private static String string16(ByteBuffer buf) {
    byte[] bytes = new byte[buf.getShort() & 0xFFFF];
    buf.get(bytes);
    return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
  }

  @Test
  void liveFractionIsLiveBytesOverEntryBytes() {
    // Entry bytes of a part: its length less header, part id and footer (24 + 4 + 8).
    assertEquals(0.25, new PartInfo(0, 36 + 4000, 7, 1000).liveFraction(), 1e-12);
    assertEquals(1.0, new PartInfo(0, 36 + 4000, 7, 4000).liveFraction(), 1e-12);
    assertEquals(0.0, new PartInfo(0, 36 + 4000, 0, 0).liveFraction(), 1e-12);
    assertEquals(1.0, new PartInfo(0, 36, 0, 0).liveFraction(), 1e-12, "a part of no entries");
  }

  @Test
  void fileNamesAndGenerations() {
    assertEquals("_manifests/manifest-0000000001", Manifest.fileName(1));
    assertEquals("directory-0000000042", ArchiveLayout.directory(42));
    assertEquals("names-0000000042-0", ArchiveLayout.names(42, 0));
    assertEquals("names-0000000042-12", ArchiveLayout.names(42, 12));
    assertEquals("index-0000000003-000017", ArchiveLayout.index(3, 17));
    assertEquals("part-000000", ArchiveLayout.part(0));
    assertEquals("part-999999", ArchiveLayout.part(999999));
    assertEquals("_journal-0000000001", ArchiveLayout.journal(1));
    assertEquals(12, Manifest.generationOf("manifest-0000000012"));
    assertEquals(-1, Manifest.generationOf("manifest-12"));
    assertEquals(-1, Manifest.generationOf(".tmp-manifest-0000000012-abc"));
    assertEquals(-1, Manifest.generationOf("manifest-00000000x2"));
    assertTrue(ArchiveLayout.temporaryManifest(3, "u").startsWith("_manifests/."));
  }

  @Test
  void rejectsUnknownHashAlgorithm() throws Exception {
    byte[] file = sample(1).toBytes();
    for (int algorithm : new int[] {0, 3, 0xFF}) {
      file[FileHeader.SIZE + 16] = (byte) algorithm;
      CorruptArchiveException e =
          assertThrows(CorruptArchiveException.class, () -> parse(FormatTesting.reseal(file)));
      assertTrue(e.getMessage().contains("unknown hash algorithm " + algorithm), e.getMessage());
    }
  }

  @Test
  void rejectsBadLayerCounts() throws Exception {
    byte[] file = sample(2).toBytes();
    // At least one layer (the base); never more than the body can hold.
    for (int count : new int[] {0, -1, 1000, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
      byte[] bad = file.clone();
      ByteBuffer.wrap(bad).putInt(LAYER_COUNT_AT, count);
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> parse(FormatTesting.reseal(bad)), "count " + count);
      assertTrue(e.getMessage().contains("layer count") || count > 0, e.getMessage());
    }
    // One layer too many or too few: the lists after it are misread, and that is noticed.
    for (int count : new int[] {1, 3}) {
      byte[] bad = file.clone();
      ByteBuffer.wrap(bad).putInt(LAYER_COUNT_AT, count);
      assertThrows(CorruptArchiveException.class, () -> parse(FormatTesting.reseal(bad)),
          "count " + count);
    }
  }

  @Test
  void rejectsBadSegmentCounts() throws Exception {
    byte[] file = sample(2).toBytes();
    int countAt = LAYER_COUNT_AT + 4 + (12 + 71) + (12 + 38);
    assertEquals(2, ByteBuffer.wrap(file).getInt(countAt));
    for (int count : new int[] {-1, 1, 3, 1000, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
      byte[] bad = file.clone();
      ByteBuffer.wrap(bad).putInt(countAt, count);
      assertThrows(CorruptArchiveException.class, () -> parse(FormatTesting.reseal(bad)),
          "count " + count);
    }
  }

  @Test
  void rejectsBadPartCounts() throws Exception {
    byte[] file = sample(2).toBytes();
    int countAt = file.length - FileFooter.SIZE - TAIL_BYTES - ACCESS_BYTES - 2 * 28 - 4;
    assertEquals(2, ByteBuffer.wrap(file).getInt(countAt));
    for (int count : new int[] {-1, 3, 1000, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
      byte[] bad = file.clone();
      ByteBuffer.wrap(bad).putInt(countAt, count);
      assertThrows(CorruptArchiveException.class, () -> parse(FormatTesting.reseal(bad)),
          "count " + count);
    }
    // One part too few: the other part's 28 bytes are left over.
    byte[] fewer = file.clone();
    ByteBuffer.wrap(fewer).putInt(countAt, 1);
    assertTrue(assertThrows(CorruptArchiveException.class,
        () -> parse(FormatTesting.reseal(fewer))).getMessage().contains("unexpected bytes"));
  }

  @Test
  void rejectsBadAccessCountsAndPermissions() throws Exception {
    byte[] file = sample(2).toBytes();
    int countAt = file.length - FileFooter.SIZE - TAIL_BYTES - ACCESS_BYTES;
    assertEquals(2, ByteBuffer.wrap(file).getInt(countAt));
    for (int count : new int[] {-1, 1, 3, 65536, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
      byte[] bad = file.clone();
      ByteBuffer.wrap(bad).putInt(countAt, count);
      assertThrows(CorruptArchiveException.class, () -> parse(FormatTesting.reseal(bad)),
          "count " + count);
    }
    // Bits 12..15 of a Permission are 0.
    int permissionAt = file.length - FileFooter.SIZE - TAIL_BYTES - 2;
    assertEquals(01644, ByteBuffer.wrap(file).getShort(permissionAt));
    for (int bit = 12; bit < 16; bit++) {
      byte[] bad = file.clone();
      ByteBuffer.wrap(bad).putShort(permissionAt, (short) (01644 | 1 << bit));
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> parse(FormatTesting.reseal(bad)), "bit " + bit);
      assertTrue(e.getMessage().contains("outside 07777"), e.getMessage());
    }
  }

  @Test
  void manifestsBeforeVersion4HaveNoAccessClasses() throws Exception {
    Manifest old = sample(2).withAccesses(List.of());
    // The same body without the (empty) dictionary and the version 5 fields is a version 3 body.
    ByteBuffer body = SealedFile.check(olderBody(old.toBytes(), 4 + TAIL_BYTES, 3), "m",
        FileKind.MANIFEST, ID);
    assertEquals(withoutVersion5Fields(old), Manifest.parse(ID, body, "m", 3));
  }

  /**
   * A manifest before version 5 has no floor and no commit id: its floor is one above its
   * largest part id, its commit id 0.
   */
  @Test
  void manifestsBeforeVersion5HaveTheFloorOfTheirParts() throws Exception {
    Manifest sample = sample(2);
    ByteBuffer body = SealedFile.check(olderBody(sample.toBytes(), TAIL_BYTES, 4), "m",
        FileKind.MANIFEST, ID);
    Manifest parsed = Manifest.parse(ID, body, "m", 4);
    assertEquals(withoutVersion5Fields(sample), parsed);
    assertEquals(2, parsed.partIdFloor());
    assertEquals(0, parsed.commitId());
  }

  /**
   * A manifest before version 6 does not record the commit it was built on: its base commit id
   * is 0 (unknown), and every other field reads as written.
   */
  @Test
  void manifestsBeforeVersion6HaveNoBaseCommitId() throws Exception {
    Manifest sample = sample(2);
    ByteBuffer body = SealedFile.check(olderBody(sample.toBytes(), 8, 5), "m",
        FileKind.MANIFEST, ID);
    Manifest parsed = Manifest.parse(ID, body, "m", 5);
    assertEquals(BASE_COMMIT_ID, sample.baseCommitId());
    assertEquals(0, parsed.baseCommitId());
    assertEquals(COMMIT_ID, parsed.commitId());
    assertEquals(sample.partIdFloor(), parsed.partIdFloor());
    assertEquals(sample.parts(), parsed.parts());
  }

  /** A floor at or below a part the manifest names is refused. */
  @Test
  void rejectsAFloorBelowItsParts() throws Exception {
    byte[] file = sample(2).toBytes();
    int floorAt = file.length - FileFooter.SIZE - TAIL_BYTES;
    for (int floor : new int[] {1, 0, -1, Integer.MIN_VALUE}) {
      byte[] bad = file.clone();
      ByteBuffer.wrap(bad).putInt(floorAt, floor);
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> parse(FormatTesting.reseal(bad)), "floor " + floor);
      assertTrue(e.getMessage().contains("part id floor " + floor + " below part 1"),
          e.getMessage());
    }
    ByteBuffer.wrap(file).putInt(floorAt, 2);
    assertEquals(2, parse(FormatTesting.reseal(file)).partIdFloor());
  }

  /** {@code file} without the {@code cut} bytes that end its body, as a {@code version} file. */
  private static byte[] olderBody(byte[] file, int cut, int version) {
    byte[] older = new byte[file.length - cut];
    System.arraycopy(file, 0, older, 0, file.length - FileFooter.SIZE - cut);
    System.arraycopy(file, file.length - FileFooter.SIZE, older, older.length - FileFooter.SIZE,
        FileFooter.SIZE);
    older[5] = (byte) version;
    return FormatTesting.reseal(older);
  }

  private static Manifest withoutVersion5Fields(Manifest m) {
    return new Manifest(m.archiveId(), m.generation(), m.commitTimeMillis(), m.hashAlgorithm(),
        m.fileCount(), m.originalBytes(), m.storedBytes(), m.bucketCapacity(), m.blockSize(),
        m.partSize(), m.layers(), m.namesSegments(), m.parts(), m.accesses(),
        Manifest.idsAbove(m.parts()), 0, 0);
  }

  @Test
  void rejectsBodiesCutShortOrLengthenedEvenWithAValidFooter() throws Exception {
    byte[] file = sample(3).toBytes();
    byte[] footer = Arrays.copyOfRange(file, file.length - FileFooter.SIZE, file.length);
    for (int bodyLength = 0; bodyLength < file.length - FileHeader.SIZE - FileFooter.SIZE;
        bodyLength++) {
      byte[] cut = new byte[FileHeader.SIZE + bodyLength + FileFooter.SIZE];
      System.arraycopy(file, 0, cut, 0, FileHeader.SIZE + bodyLength);
      System.arraycopy(footer, 0, cut, cut.length - FileFooter.SIZE, FileFooter.SIZE);
      int n = bodyLength;
      assertThrows(CorruptArchiveException.class, () -> parse(FormatTesting.reseal(cut)),
          () -> "body of " + n + " bytes");
    }
    byte[] longer = new byte[file.length + 1];
    System.arraycopy(file, 0, longer, 0, file.length - FileFooter.SIZE);
    System.arraycopy(footer, 0, longer, longer.length - FileFooter.SIZE, FileFooter.SIZE);
    assertThrows(CorruptArchiveException.class, () -> parse(FormatTesting.reseal(longer)));
  }

  @Test
  void stringLengthsPastTheBodyAreCorruption() throws Exception {
    byte[] file = sample(1).toBytes();
    int firstSegmentName = LAYER_COUNT_AT + 4 + (12 + 71) + (12 + 38) + 4;
    int secondSegmentName = firstSegmentName + 2 + 18 + 8;
    for (int at : new int[] {firstSegmentName, secondSegmentName}) {
      for (int length : new int[] {0xFFFF, 0x8000, 400}) {
        byte[] bad = file.clone();
        ByteBuffer.wrap(bad).putShort(at, (short) length);
        assertThrows(CorruptArchiveException.class, () -> parse(FormatTesting.reseal(bad)),
            "length " + length + " at " + at);
      }
    }
  }

  @Test
  void everyBitFlipOfAStoredManifestIsDetected() throws Exception {
    byte[] file = sample(2).toBytes();
    for (long bit = 0; bit < 8L * file.length; bit++) {
      byte[] flipped = FormatTesting.flip(file, bit);
      long at = bit;
      assertThrows(org.hpf.HpfException.class, () -> parse(flipped), () -> "bit " + at);
    }
  }
}
