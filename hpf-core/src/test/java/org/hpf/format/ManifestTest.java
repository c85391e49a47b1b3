package org.hpf.format;

import static org.hpf.format.FormatTesting.ID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hpf.CorruptArchiveException;
import org.hpf.format.Manifest.PartInfo;
import org.hpf.io.HadoopStorage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The manifest: round trip through storage, its byte layout, and rejection of bad bodies. */
class ManifestTest {
  @TempDir Path tmp;

  static Manifest sample(int parts) {
    List<PartInfo> list = new ArrayList<>();
    for (int i = 0; i < parts; i++) {
      list.add(new PartInfo(i, 1000L * i + 36));
    }
    return new Manifest(ID, 1, 1_700_000_000_123L, NameHasher.MURMUR3_128_ID, 12345, 6789012345L,
        456789, 100, 128L << 20, 1L << 30, ArchiveLayout.directory(1), ArchiveLayout.names(1),
        list);
  }

  private static Manifest parse(byte[] file) throws Exception {
    ByteBuffer body = SealedFile.check(file, "m", FileKind.MANIFEST, ID);
    return Manifest.parse(ID, body, "m");
  }

  @Test
  void roundTripsThroughStorage() throws Exception {
    HadoopStorage storage = FormatTesting.storage(tmp);
    storage.mkdirs(Manifest.DIR);
    for (int parts : new int[] {0, 1, 7, 1000}) {
      Manifest manifest = sample(parts);
      String name = Manifest.fileName(parts + 1L);
      FormatTesting.put(storage, name, manifest.toBytes());
      ByteBuffer body = SealedFile.read(storage, name, FileKind.MANIFEST, null);
      assertEquals(manifest, Manifest.parse(ID, body, name));
    }
  }

  @Test
  void roundTripsExtremeValuesAndNonAsciiNames() throws Exception {
    Manifest manifest = new Manifest(ID, Long.MAX_VALUE, Long.MIN_VALUE, 1, Long.MAX_VALUE, -1,
        0, Integer.MAX_VALUE, 0, Long.MAX_VALUE, "dïrectory-ü", "names-日本",
        List.of(new PartInfo(Integer.MAX_VALUE, Long.MAX_VALUE), new PartInfo(0, 0)));
    assertEquals(manifest, parse(manifest.toBytes()));
  }

  @Test
  void layoutMatchesTheSpec() throws Exception {
    byte[] file = sample(2).toBytes();
    ByteBuffer buf = ByteBuffer.wrap(file);
    buf.position(FileHeader.SIZE);
    assertEquals(1, buf.getLong()); // Generation
    assertEquals(1_700_000_000_123L, buf.getLong()); // CommitTimeMillis
    assertEquals(1, buf.get()); // HashAlgorithm
    assertEquals(12345, buf.getLong()); // FileCount
    assertEquals(6789012345L, buf.getLong()); // OriginalBytes
    assertEquals(456789, buf.getLong()); // StoredBytes
    assertEquals(100, buf.getInt()); // BucketCapacity
    assertEquals(128L << 20, buf.getLong()); // BlockSize
    assertEquals(1L << 30, buf.getLong()); // PartSize
    assertEquals(20, buf.getShort()); // DirectoryFile:String16
    buf.position(buf.position() + 20);
    assertEquals(16, buf.getShort()); // NamesFile
    buf.position(buf.position() + 16);
    assertEquals(2, buf.getInt()); // PartCount
    assertEquals(0, buf.getInt());
    assertEquals(36, buf.getLong());
    assertEquals(1, buf.getInt());
    assertEquals(1036, buf.getLong());
    assertEquals(file.length - FileFooter.SIZE, buf.position());
    assertEquals(FileKind.MANIFEST.code(), file[4]);
  }

  @Test
  void fileNamesAndGenerations() {
    assertEquals("_manifests/manifest-0000000001", Manifest.fileName(1));
    assertEquals("directory-0000000042", ArchiveLayout.directory(42));
    assertEquals("names-0000000042", ArchiveLayout.names(42));
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
    file[FileHeader.SIZE + 16] = 2;
    CorruptArchiveException e =
        assertThrows(CorruptArchiveException.class, () -> parse(FormatTesting.reseal(file)));
    assertTrue(e.getMessage().contains("unknown hash algorithm 2"), e.getMessage());
  }

  @Test
  void rejectsBadPartCounts() throws Exception {
    byte[] file = sample(2).toBytes();
    int countAt = file.length - FileFooter.SIZE - 2 * 12 - 4;
    for (int count : new int[] {-1, 3, 1000, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
      byte[] bad = file.clone();
      ByteBuffer.wrap(bad).putInt(countAt, count);
      assertThrows(CorruptArchiveException.class, () -> parse(FormatTesting.reseal(bad)),
          "count " + count);
    }
    // One part too few: the other part's 12 bytes are left over.
    byte[] fewer = file.clone();
    ByteBuffer.wrap(fewer).putInt(countAt, 1);
    assertTrue(assertThrows(CorruptArchiveException.class,
        () -> parse(FormatTesting.reseal(fewer))).getMessage().contains("unexpected bytes"));
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
    int directoryNameAt = FileHeader.SIZE + 8 + 8 + 1 + 8 + 8 + 8 + 4 + 8 + 8;
    for (int length : new int[] {0xFFFF, 0x8000, 200}) {
      byte[] bad = file.clone();
      ByteBuffer.wrap(bad).putShort(directoryNameAt, (short) length);
      assertThrows(CorruptArchiveException.class, () -> parse(FormatTesting.reseal(bad)));
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
