package org.hpf.golden;

/**
 * The golden archive of format version 2 (src/test/resources/golden/v2), written by the writers
 * of format version 2 (before parts carried chunk checksums): the proof that archives of version
 * 2 stay readable. Never regenerated.
 */
class GoldenArchiveV2Test extends GoldenArchiveChecks {
  GoldenArchiveV2Test() {
    super(2);
  }
}
