package org.hpf.golden;

import static org.hpf.golden.GoldenArchiveChecks.files;
import static org.hpf.golden.GoldenArchiveChecks.kindOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.hpf.internal.format.FileFooter;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.format.FileKind;
import org.junit.jupiter.api.Test;

/**
 * The golden archive of format version 3 (src/test/resources/golden/v3), which the current
 * writer writes: read and parsed as every golden archive is, and written again byte for byte.
 */
class GoldenArchiveV3Test extends GoldenArchiveChecks {
  GoldenArchiveV3Test() {
    super(3);
  }

  /**
   * The current writer, given the same inputs and changes, writes the same bytes as the golden
   * archive.
   *
   * <p>Part, names and directory files depend only on the members, their mtimes, the options,
   * the changes and the archive id (one merge thread fixes the order of members in parts). Index
   * files hold the Java serialization of sux4j's hollow-trie function; the trie is built without
   * randomness and the serialized form has no identity hash codes or timestamps, so they are
   * deterministic too (checked here; the directories record their lengths, so they would differ
   * with them). The manifests differ only in CommitTimeMillis (bytes 32..39) and therefore in
   * their footer CRC.
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
}
