package org.hpf.fs.contract;

import org.junit.jupiter.api.Assumptions;

/** Contract tests that cannot apply to hpf://, each with its reason (docs/HPF-FILESYSTEM.md). */
final class Unsupported {
  private Unsupported() {}

  /** The test creates an empty directory and expects to see it. */
  static void emptyDirectory() {
    Assumptions.abort("hpf has no empty directories: a directory is implied by the names of "
        + "the members below it, and this test needs one with none");
  }
}
