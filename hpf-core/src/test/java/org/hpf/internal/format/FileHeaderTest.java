package org.hpf.internal.format;

import static org.hpf.internal.format.FormatTesting.ID;
import static org.hpf.internal.format.FormatTesting.OTHER_ID;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.hpf.ArchiveVersionException;
import org.hpf.CorruptArchiveException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The 24-byte common header: its exact bytes and every check of docs/FORMAT.md, in order. */
class FileHeaderTest {
  private static final String FILE = "hdfs://nn/a.hpf/index-0000000001-000003";

  @Test
  void bytesAreExactlyWhatTheSpecSays() throws Exception {
    byte[] expected = HexFormat.of().parseHex(
        "4850461A" + "03" + "03" + "0000" + "0123456789ABCDEF" + "FEDCBA9876543210");
    assertArrayEquals(expected, FileHeader.bytes(FileKind.INDEX, ID));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FileHeader.write(new DataOutputStream(out), FileKind.INDEX, ID);
    assertArrayEquals(expected, out.toByteArray());
    assertEquals(FileHeader.SIZE, expected.length);
  }

  @Test
  void kindCodesAreThoseOfTheSpec() {
    assertEquals(1, FileKind.MANIFEST.code());
    assertEquals(2, FileKind.DIRECTORY.code());
    assertEquals(3, FileKind.INDEX.code());
    assertEquals(4, FileKind.PART.code());
    assertEquals(5, FileKind.NAMES.code());
    assertEquals(6, FileKind.JOURNAL.code());
  }

  @ParameterizedTest
  @EnumSource(FileKind.class)
  void roundTripsEveryKindAndAdvancesPastTheHeader(FileKind kind) throws Exception {
    byte[] bytes = ByteBuffer.allocate(30).put(FileHeader.bytes(kind, ID)).putInt(42).array();
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    assertEquals(ID, FileHeader.check(buf, FILE, kind, ID));
    assertEquals(FileHeader.SIZE, buf.position());
    assertEquals(42, buf.getInt());
    // A null expected id accepts any and returns the one found.
    assertEquals(ID, FileHeader.check(ByteBuffer.wrap(bytes), FILE, kind, null));
  }

  @Test
  void checksAHeaderInTheMiddleOfABuffer() throws Exception {
    byte[] bytes = new byte[10 + FileHeader.SIZE];
    System.arraycopy(FileHeader.bytes(FileKind.PART, ID), 0, bytes, 10, FileHeader.SIZE);
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    buf.position(10);
    assertEquals(ID, FileHeader.check(buf, FILE, FileKind.PART, ID));
    assertEquals(bytes.length, buf.position());
  }

  @Test
  void badMagicIsNotAnHpfFile() {
    for (int i = 0; i < 4; i++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] bytes = FileHeader.bytes(FileKind.INDEX, ID);
        bytes[i] ^= (byte) (1 << bit);
        CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
            () -> FileHeader.check(ByteBuffer.wrap(bytes), FILE, FileKind.INDEX, ID));
        assertTrue(e.getMessage().contains("not an hpf file"), e.getMessage());
        assertTrue(e.getMessage().contains(FILE), e.getMessage());
        assertTrue(e.getMessage().contains("at offset 0"), e.getMessage());
      }
    }
  }

  @Test
  void wrongKindNamesBothKinds() {
    byte[] part = FileHeader.bytes(FileKind.PART, ID);
    CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
        () -> FileHeader.check(ByteBuffer.wrap(part), FILE, FileKind.INDEX, ID));
    assertTrue(e.getMessage().contains("expected kind index, found part"), e.getMessage());
    assertTrue(e.getMessage().contains(FILE + " at offset 4"), e.getMessage());
  }

  @Test
  void unknownKindCodeIsCorruption() {
    for (int code : new int[] {0, 8, 0x83, 0xFF}) {
      byte[] bytes = FileHeader.bytes(FileKind.NAMES, ID);
      bytes[4] = (byte) code;
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> FileHeader.check(ByteBuffer.wrap(bytes), FILE, FileKind.NAMES, ID));
      assertTrue(e.getMessage().contains("unknown kind " + code), e.getMessage());
    }
  }

  @Test
  void versionsWrittenAndReadPerKind() throws Exception {
    // Format 2 changed the manifest, index, names and journal (3: deletions); format 3 the part
    // (chunk checksums) and the manifest (its parts may be of version 2); format 4 the
    // manifest, index, names and journal (access classes); format 5 the manifest (part id floor
    // and commit id); format 6 the manifest (base commit id); directory is version 1.
    assertEquals(6, FileKind.MANIFEST.version());
    assertEquals(1, FileKind.DIRECTORY.version());
    assertEquals(3, FileKind.INDEX.version());
    assertEquals(2, FileKind.PART.version());
    assertEquals(3, FileKind.NAMES.version());
    assertEquals(4, FileKind.JOURNAL.version());
    assertEquals(1, FileKind.REMOVAL.version());
    for (FileKind kind : FileKind.values()) {
      for (int version = 1; version <= kind.version(); version++) {
        byte[] bytes = FileHeader.bytes(kind, ID);
        assertEquals(kind.version(), bytes[5]);
        bytes[5] = (byte) version;
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        FileHeader.check(buf, FILE, kind, ID);
        assertEquals(version, FileHeader.version(buf, 0));
      }
    }
  }

  @Test
  void versionTooNew() {
    for (FileKind kind : FileKind.values()) {
      for (int version : new int[] {kind.version() + 1, 7, 0x7F, 0x80, 0xFF}) {
        byte[] bytes = FileHeader.bytes(kind, ID);
        bytes[5] = (byte) version;
        ArchiveVersionException e = assertThrows(ArchiveVersionException.class,
            () -> FileHeader.check(ByteBuffer.wrap(bytes), FILE, kind, ID));
        assertTrue(e.getMessage().contains("too new"), e.getMessage());
        assertTrue(e.getMessage().contains("version " + version), e.getMessage());
        assertTrue(e.getMessage().contains("1.." + kind.version()), e.getMessage());
        assertTrue(e.getMessage().contains(FILE), e.getMessage());
      }
    }
  }

  @Test
  void versionTooOld() {
    byte[] bytes = FileHeader.bytes(FileKind.MANIFEST, ID);
    bytes[5] = 0;
    ArchiveVersionException e = assertThrows(ArchiveVersionException.class,
        () -> FileHeader.check(ByteBuffer.wrap(bytes), FILE, FileKind.MANIFEST, ID));
    assertTrue(e.getMessage().contains("too old"), e.getMessage());
    assertTrue(e.getMessage().contains("1.." + FileKind.MANIFEST.version()), e.getMessage());
  }

  @Test
  void reservedBytesMustBeZero() {
    for (int i = 6; i < 8; i++) {
      byte[] bytes = FileHeader.bytes(FileKind.DIRECTORY, ID);
      bytes[i] = 1;
      assertThrows(CorruptArchiveException.class,
          () -> FileHeader.check(ByteBuffer.wrap(bytes), FILE, FileKind.DIRECTORY, ID));
    }
  }

  @Test
  void wrongArchiveIdBelongsToAnotherArchive() {
    byte[] bytes = FileHeader.bytes(FileKind.DIRECTORY, OTHER_ID);
    CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
        () -> FileHeader.check(ByteBuffer.wrap(bytes), FILE, FileKind.DIRECTORY, ID));
    assertTrue(e.getMessage().contains("belongs to another archive"), e.getMessage());
    assertTrue(e.getMessage().contains(OTHER_ID.toString()), e.getMessage());
    assertTrue(e.getMessage().contains(ID.toString()), e.getMessage());
    // Every single bit of the id matters.
    for (int bit = 8 * 8; bit < 8 * FileHeader.SIZE; bit++) {
      byte[] flipped = FormatTesting.flip(FileHeader.bytes(FileKind.DIRECTORY, ID), bit);
      assertThrows(CorruptArchiveException.class,
          () -> FileHeader.check(ByteBuffer.wrap(flipped), FILE, FileKind.DIRECTORY, ID));
    }
  }

  @Test
  void checksComeInTheSpecifiedOrder() {
    // Bad magic wins over everything else.
    byte[] all = FileHeader.bytes(FileKind.PART, OTHER_ID);
    all[0] = 0;
    all[5] = 9;
    assertTrue(assertThrows(CorruptArchiveException.class,
        () -> FileHeader.check(ByteBuffer.wrap(all), FILE, FileKind.INDEX, ID))
        .getMessage().contains("not an hpf file"));
    // Then the kind, before the version.
    byte[] kindAndVersion = FileHeader.bytes(FileKind.PART, OTHER_ID);
    kindAndVersion[5] = 9;
    assertTrue(assertThrows(CorruptArchiveException.class,
        () -> FileHeader.check(ByteBuffer.wrap(kindAndVersion), FILE, FileKind.INDEX, ID))
        .getMessage().contains("expected kind index, found part"));
    // Then the version, before the archive id: a newer file of another archive is "too new".
    byte[] versionAndId = FileHeader.bytes(FileKind.INDEX, OTHER_ID);
    versionAndId[5] = 4;
    assertThrows(ArchiveVersionException.class,
        () -> FileHeader.check(ByteBuffer.wrap(versionAndId), FILE, FileKind.INDEX, ID));
  }

  @Test
  void shortBufferIsCorruptionNotUnderflow() {
    byte[] header = FileHeader.bytes(FileKind.INDEX, ID);
    for (int length = 0; length < FileHeader.SIZE; length++) {
      ByteBuffer buf = ByteBuffer.wrap(header, 0, length);
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> FileHeader.check(buf, FILE, FileKind.INDEX, ID));
      assertTrue(e.getMessage().contains("too short"), e.getMessage());
    }
  }
}
