package org.hpf.golden;

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
 * The golden archive of format version 7 (src/test/resources/golden/v7), which the current
 * writer writes: the files of format 6, but for the function codecs of its index files (3 in the
 * base, 4 above it, every byte defined by docs/FORMAT.md): read and parsed as every golden
 * archive is, and written again byte for byte.
 */
class GoldenArchiveV7Test extends GoldenArchiveChecks {
  GoldenArchiveV7Test() {
    super(7);
  }

  /**
   * The current writer, given the same inputs and changes, writes the same bytes as the golden
   * archive.
   *
   * <p>Part, names and directory files depend only on the members, their mtimes and accesses,
   * the options, the changes and the archive id (one merge thread fixes the order of members in
   * parts). Index files hold function codecs 3 and 4, a pure function of the bucket's hashes, so
   * they are deterministic too (checked here; the directories record their lengths, so they
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
}
