package org.hpf.golden;

/**
 * The golden archive of format version 3 (src/test/resources/golden/v3), written by the writers
 * of format version 3 (before members recorded owners, groups and modes): the proof that
 * archives of version 3 stay readable. Never regenerated.
 */
class GoldenArchiveV3Test extends GoldenArchiveChecks {
  GoldenArchiveV3Test() {
    super(3);
  }
}
