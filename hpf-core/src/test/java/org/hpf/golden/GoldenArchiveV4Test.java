package org.hpf.golden;

import static org.hpf.golden.GoldenArchiveChecks.files;
import static org.hpf.golden.GoldenArchiveChecks.kindOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.FileFooter;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.format.FileKind;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.read.HpfReader;
import org.junit.jupiter.api.Test;

/**
 * The golden archive of format version 4 (src/test/resources/golden/v4), which the current
 * writer writes: read and parsed as every golden archive is (its access classes field by
 * field), written again byte for byte, and damaged copies of its access bytes refused.
 */
class GoldenArchiveV4Test extends GoldenArchiveChecks {
  GoldenArchiveV4Test() {
    super(4);
  }

  /**
   * The current writer, given the same inputs and changes, writes the same bytes as the golden
   * archive.
   *
   * <p>Part, names and directory files depend only on the members, their mtimes and accesses,
   * the options, the changes and the archive id (one merge thread fixes the order of members in
   * parts). Index files hold the Java serialization of sux4j's hollow-trie function; the trie is
   * built without randomness and the serialized form has no identity hash codes or timestamps,
   * so they are deterministic too (checked here; the directories record their lengths, so they
   * would differ with them). The manifests differ only in CommitTimeMillis (bytes 32..39) and
   * therefore in their footer CRC.
   *
   * <p>LZ4 output is the one input that depends on the environment: lz4-java picks its JNI
   * binding where its native library loads and a Java port elsewhere, and they compress to
   * different (equally valid) blocks. expected.txt records the one the golden archive was written
   * with; under another one, only the files that do not depend on LZ4 block sizes (names and
   * directories) are compared, and the rest of this test is skipped. Likewise, if it fails only on
   * parts, index files and manifests after an lz4-java upgrade, the compressor changed, not the
   * format (the golden archive still reads).
   */
  @Test
  void currentWriterWritesTheGoldenBytes() throws IOException {
    Path fresh = tmp.resolve("archive.hpf");
    GoldenArchive.create(tmp, fresh);
    Map<String, byte[]> want = files(archive());
    Map<String, byte[]> got = files(fresh);
    assertEquals(want.keySet(), got.keySet());
    for (String name : want.keySet()) {
      FileKind kind = kindOf(name);
      if (kind == FileKind.NAMES || kind == FileKind.DIRECTORY) {
        assertArrayEquals(want.get(name), got.get(name), name);
      }
    }
    String lz4 = GoldenArchive.lz4Compressor();
    org.junit.jupiter.api.Assumptions.assumeTrue(
        lz4.equals(expected().field(GoldenArchive.LZ4_COMPRESSOR)),
        "the golden archive was written with " + expected().field(GoldenArchive.LZ4_COMPRESSOR)
            + ", this JVM compresses with " + lz4 + ": parts, index files and manifests differ");
    List<String> different = new ArrayList<>();
    for (String name : want.keySet()) {
      byte[] a = want.get(name);
      byte[] b = got.get(name);
      if (kindOf(name) == FileKind.MANIFEST) {
        assertEquals(a.length, b.length, name);
        int commitTime = FileHeader.SIZE + 8;
        // Equal outside CommitTimeMillis and the checksum that covers it.
        byte[] maskedA = a.clone();
        byte[] maskedB = b.clone();
        for (byte[] masked : List.of(maskedA, maskedB)) {
          Arrays.fill(masked, commitTime, commitTime + 8, (byte) 0);
          Arrays.fill(masked, masked.length - 4, masked.length, (byte) 0);
        }
        if (!Arrays.equals(maskedA, maskedB)) {
          different.add(name);
        }
        FileFooter.check(b, name);
      } else if (!Arrays.equals(a, b)) {
        different.add(name + " (" + a.length + " vs " + b.length + " bytes, first difference at "
            + Arrays.mismatch(a, b) + ")");
      }
    }
    assertTrue(different.isEmpty(), "the writer no longer writes the golden bytes: " + different);
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

  private static byte[] resealed(byte[] file) {
    byte[] copy = file.clone();
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(copy, 0, copy.length - 4);
    ByteBuffer.wrap(copy).putInt(copy.length - 4, (int) crc.getValue());
    return copy;
  }

  private void assertRefused(Path archive, Path file, byte[] bytes, String message)
      throws IOException {
    byte[] original = Files.readAllBytes(file);
    Files.write(file, bytes);
    try {
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> HpfReader.open(new Configuration(),
              new org.apache.hadoop.fs.Path(archive.toUri())).close());
      assertTrue(e.getMessage().contains(message), e.getMessage());
    } finally {
      Files.write(file, original);
    }
  }

  private Path copyOfGolden() throws IOException {
    Path copy = tmp.resolve("copy.hpf");
    for (Map.Entry<String, byte[]> file : files(archive()).entrySet()) {
      Path target = copy.resolve(file.getKey());
      Files.createDirectories(target.getParent());
      Files.write(target, file.getValue());
    }
    return copy;
  }
}
