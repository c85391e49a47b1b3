package org.hpf.golden;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hpf.internal.format.FileFooter;
import org.hpf.internal.format.FileKind;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.SealedFile;
import org.junit.jupiter.api.Test;

/**
 * The golden archive of format version 6 (src/test/resources/golden/v6): read and parsed as every
 * golden archive is (its part id floor, commit id and base commit id field by field), and a
 * manifest whose floor lies below one of its parts refused.
 */
class GoldenArchiveV6Test extends GoldenArchiveChecks {
  GoldenArchiveV6Test() {
    super(6);
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
