package org.hpf.golden;

/**
 * The golden archive of format version 1 (src/test/resources/golden/v1), written by hpf 0.1:
 * the proof that archives of version 1 stay readable. Never regenerated.
 */
class GoldenArchiveV1Test extends GoldenArchiveChecks {
  GoldenArchiveV1Test() {
    super(1);
  }
}
