package org.hpf.golden;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hpf.internal.format.FileFooter;
import org.hpf.internal.format.FileKind;
import org.hpf.internal.format.Manifest;
import org.junit.jupiter.api.Test;

/**
 * The golden archive of format version 4 (src/test/resources/golden/v4): read and parsed as every
 * golden archive is (its access classes field by field), and damaged copies of its access bytes
 * refused.
 */
class GoldenArchiveV4Test extends GoldenArchiveChecks {
  GoldenArchiveV4Test() {
    super(4);
  }

  /**
   * A manifest whose dictionary has a permission with bits above 07777, or whose access count
   * is off by one, is refused even with its footer checksum made right.
   */
  @Test
  void aDamagedDictionaryIsRefused() throws IOException {
    Path copy = copyOfGolden();
    Path manifest = copy.resolve(Manifest.fileName(3));
    byte[] good = Files.readAllBytes(manifest);
    // The last class's Permission ends the body.
    int permissionAt = good.length - FileFooter.SIZE - 2;
    byte[] high = good.clone();
    ByteBuffer.wrap(high).putShort(permissionAt,
        (short) (ByteBuffer.wrap(good).getShort(permissionAt) | 0x8000));
    assertRefused(copy, manifest, resealed(high), "outside 07777");
    int count = ByteBuffer.wrap(good).getInt(accessCountAt(good));
    for (int wrong : new int[] {count - 1, count + 1}) {
      byte[] bad = good.clone();
      ByteBuffer.wrap(bad).putInt(accessCountAt(good), wrong);
      assertRefused(copy, manifest, resealed(bad), "");
    }
    // Without the footer fixed, a flipped bit anywhere in the dictionary fails its checksum.
    for (int at = accessCountAt(good); at < good.length - FileFooter.SIZE; at += 7) {
      byte[] flipped = good.clone();
      flipped[at] ^= 0x04;
      assertRefused(copy, manifest, flipped, "");
    }
  }

  /** Where AccessCount is: the dictionary ends the body, so it starts its size before. */
  private static int accessCountAt(byte[] manifest) throws IOException {
    ByteBuffer body = org.hpf.internal.format.SealedFile.check(manifest, "m", FileKind.MANIFEST,
        GoldenArchive.ID);
    int size = 4;
    for (org.hpf.MemberAccess access : Manifest.parse(GoldenArchive.ID, body, "m", 4)
        .accesses()) {
      size += 2 + utf8(access.owner()) + 2 + utf8(access.group()) + 2;
    }
    return manifest.length - FileFooter.SIZE - size;
  }

  private static int utf8(String text) {
    return text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
  }
}
