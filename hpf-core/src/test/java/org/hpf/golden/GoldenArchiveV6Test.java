package org.hpf.golden;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.hpf.internal.format.FileFooter;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.format.FileKind;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.SealedFile;
import org.junit.jupiter.api.Test;

/**
 * The golden archive of format version 6 (src/test/resources/golden/v6), which the current
 * writer writes: read and parsed as every golden archive is (its part id floor, commit id and
 * base commit id field by field), written again byte for byte, and a manifest whose floor lies
 * below one of its parts refused.
 */
class GoldenArchiveV6Test extends GoldenArchiveChecks {
  GoldenArchiveV6Test() {
    super(6);
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
   * would differ with them). The manifests differ only in CommitTimeMillis (bytes 32..39), their
   * random CommitId and BaseCommitId (the 16 bytes before the footer) and therefore in their
   * footer CRC.
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
        int commitId = a.length - FileFooter.SIZE - 16;
        // Equal outside CommitTimeMillis, CommitId, BaseCommitId and the checksum over them.
        byte[] maskedA = a.clone();
        byte[] maskedB = b.clone();
        for (byte[] masked : List.of(maskedA, maskedB)) {
          Arrays.fill(masked, commitTime, commitTime + 8, (byte) 0);
          Arrays.fill(masked, commitId, commitId + 16, (byte) 0);
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
   * A floor at or below a part the manifest names would let a collector delete that part: such a
   * manifest is refused even with its footer checksum made right. The two manifests' commit ids
   * differ.
   */
  @Test
  void aFloorBelowAPartIsRefused() throws IOException {
    Path copy = copyOfGolden();
    Path manifest = copy.resolve(Manifest.fileName(3));
    byte[] good = Files.readAllBytes(manifest);
    Manifest parsed = parse(good);
    int floorAt = good.length - FileFooter.SIZE - 8 - 8 - 4;
    assertEquals(parsed.partIdFloor(), ByteBuffer.wrap(good).getInt(floorAt));
    byte[] low = good.clone();
    ByteBuffer.wrap(low).putInt(floorAt, Manifest.idsAbove(parsed.parts()) - 1);
    assertRefused(copy, manifest, resealed(low), "part id floor");
    Manifest second = parse(Files.readAllBytes(copy.resolve(Manifest.fileName(2))));
    assertNotEquals(parsed.commitId(), second.commitId());
    // Generation 3 records that it was built on generation 2's commit.
    assertEquals(second.commitId(), parsed.baseCommitId());
  }

  private static Manifest parse(byte[] manifest) throws IOException {
    ByteBuffer body = SealedFile.check(manifest, "m", FileKind.MANIFEST, GoldenArchive.ID);
    return Manifest.parse(GoldenArchive.ID, body, "m", 6);
  }
}
