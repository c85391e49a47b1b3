package org.hpf.internal.format;

import static org.hpf.internal.format.FormatTesting.ID;
import static org.hpf.internal.format.FormatTesting.OTHER_ID;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32C;
import org.hpf.ArchiveVersionException;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.io.HadoopStorage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The 8-byte footer (FooterMagic, CRC32C of everything before the checksum) and SealedFile. */
class FileFooterTest {
  @TempDir Path tmp;

  @Test
  void footerIsMagicThenCrc32cOfEverythingBefore() throws Exception {
    byte[] body = "some body bytes".getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ChecksummedOutput out = new ChecksummedOutput(bytes);
    FileHeader.write(out.data(), FileKind.NAMES, ID);
    out.write(body, 0, 5);
    for (int i = 5; i < body.length; i++) {
      out.write(body[i]);
    }
    assertEquals(FileHeader.SIZE + body.length, out.position());
    out.writeFooter();
    assertEquals(FileHeader.SIZE + body.length + FileFooter.SIZE, out.position());
    byte[] file = bytes.toByteArray();
    assertEquals(out.position(), file.length);

    assertEquals(0xB7AFB9E5, FileFooter.MAGIC);
    assertEquals(~FileHeader.MAGIC, FileFooter.MAGIC);
    ByteBuffer buf = ByteBuffer.wrap(file);
    assertEquals(0xB7AFB9E5, buf.getInt(file.length - 8));
    CRC32C crc = new CRC32C();
    crc.update(file, 0, file.length - 4);
    assertEquals((int) crc.getValue(), buf.getInt(file.length - 4));
    FileFooter.check(file, "f");
  }

  @Test
  void smallestFileIsHeaderAndFooter() throws Exception {
    byte[] file = FormatTesting.sealed(FileKind.DIRECTORY, ID, new byte[0]);
    assertEquals(FileHeader.SIZE + FileFooter.SIZE, file.length);
    FileFooter.check(file, "f");
    for (int length = 0; length < file.length; length++) {
      byte[] cut = Arrays.copyOf(file, length);
      CorruptArchiveException e =
          assertThrows(CorruptArchiveException.class, () -> FileFooter.check(cut, "f"));
      assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }
  }

  @Test
  void everySingleBitFlipIsDetected() throws Exception {
    byte[] body = new byte[300];
    new Random(7).nextBytes(body);
    byte[] file = FormatTesting.sealed(FileKind.MANIFEST, ID, body);
    for (long bit = 0; bit < 8L * file.length; bit++) {
      byte[] flipped = FormatTesting.flip(file, bit);
      long at = bit;
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> FileFooter.check(flipped, "f"), () -> "bit " + at);
      if (bit / 8 >= file.length - 8 && bit / 8 < file.length - 4) {
        assertTrue(e.getMessage().contains("footer magic"), e.getMessage());
      } else {
        assertTrue(e.getMessage().contains("checksum"), e.getMessage());
      }
    }
  }

  @Test
  void truncationAndAppendedBytesAreDetected() throws Exception {
    byte[] body = new byte[100];
    new Random(8).nextBytes(body);
    byte[] file = FormatTesting.sealed(FileKind.MANIFEST, ID, body);
    for (int length = 0; length < file.length; length++) {
      byte[] cut = Arrays.copyOf(file, length);
      assertThrows(CorruptArchiveException.class, () -> FileFooter.check(cut, "f"));
    }
    for (int extra = 1; extra < 12; extra++) {
      byte[] longer = Arrays.copyOf(file, file.length + extra);
      assertThrows(CorruptArchiveException.class, () -> FileFooter.check(longer, "f"));
    }
  }

  @Test
  void sealedFileReadsBodyBetweenHeaderAndFooter() throws Exception {
    HadoopStorage storage = FormatTesting.storage(tmp);
    byte[] body = "0123456789".getBytes(StandardCharsets.US_ASCII);
    FormatTesting.put(storage, "directory-0000000001",
        FormatTesting.sealed(FileKind.DIRECTORY, ID, body));
    ByteBuffer buf = SealedFile.read(storage, "directory-0000000001", FileKind.DIRECTORY, ID);
    assertEquals(FileHeader.SIZE, buf.position());
    byte[] read = new byte[buf.remaining()];
    buf.get(read);
    assertArrayEquals(body, read);
    // null accepts any archive id
    SealedFile.read(storage, "directory-0000000001", FileKind.DIRECTORY, null);
  }

  @Test
  void sealedFileChecksHeaderThenFooter() throws Exception {
    HadoopStorage storage = FormatTesting.storage(tmp);
    byte[] good = FormatTesting.sealed(FileKind.DIRECTORY, ID, new byte[] {1, 2, 3});
    FormatTesting.put(storage, "d", good);
    assertTrue(assertThrows(CorruptArchiveException.class,
        () -> SealedFile.read(storage, "d", FileKind.MANIFEST, ID)).getMessage()
        .contains("expected kind manifest, found directory"));
    assertTrue(assertThrows(CorruptArchiveException.class,
        () -> SealedFile.read(storage, "d", FileKind.DIRECTORY, OTHER_ID)).getMessage()
        .contains("belongs to another archive"));
    // A newer version is reported as such even though its footer is then also wrong.
    byte[] newer = good.clone();
    newer[5] = 2;
    FormatTesting.put(storage, "d", newer);
    assertTrue(assertThrows(ArchiveVersionException.class,
        () -> SealedFile.read(storage, "d", FileKind.DIRECTORY, ID)).getMessage()
        .contains("too new"));
    // A body bit flip is caught by the footer.
    FormatTesting.put(storage, "d", FormatTesting.flip(good, 8 * FileHeader.SIZE + 3));
    CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
        () -> SealedFile.read(storage, "d", FileKind.DIRECTORY, ID));
    assertTrue(e.getMessage().contains(storage.location("d")), e.getMessage());
    // So is an empty file.
    FormatTesting.put(storage, "d", new byte[0]);
    assertThrows(CorruptArchiveException.class,
        () -> SealedFile.read(storage, "d", FileKind.DIRECTORY, ID));
  }
}
