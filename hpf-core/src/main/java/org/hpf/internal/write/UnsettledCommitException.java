package org.hpf.internal.write;

import java.io.IOException;

/**
 * The rename of a generation's manifest failed and the manifest could not be read back (or, on
 * an object store, its create succeeded and the check that follows it failed), so whether the
 * generation was committed is unknown. The writer removed nothing that the
 * generation names: the next writer (or {@code hpf recover}) finds the archive at that
 * generation or at the one before, and removes the leftovers of whichever it is not.
 */
final class UnsettledCommitException extends IOException {
  private static final long serialVersionUID = 1L;

  UnsettledCommitException(String location, long generation, IOException rename,
      Exception readBack) {
    super(location + ": could not tell whether generation " + generation + " was committed: "
        + "renaming its manifest failed (" + rename.getMessage() + ") and reading it back "
        + "failed (" + readBack.getMessage() + "); nothing was removed: run hpf recover, then "
        + "hpf info to see which generation is current", rename);
    addSuppressed(readBack);
  }

  /**
   * On a store that commits by conditional create: the manifest was created, but checking that
   * its generation is the archive's next (see {@link ConditionalPublish}) failed.
   */
  UnsettledCommitException(String location, long generation, Exception check) {
    super(location + ": could not tell whether generation " + generation + " was committed: "
        + "its manifest was created, but checking that the generation it built on is still "
        + "there failed (" + check.getMessage() + "); nothing was removed: run hpf recover, "
        + "then hpf info to see which generation is current", check);
  }

  /**
   * On a store that commits by conditional create: the manifest was created, and what is there
   * since cannot tell whether the archive went on from it ({@code why}).
   */
  UnsettledCommitException(String location, long generation, String why) {
    super(location + ": could not tell whether generation " + generation + " was committed: "
        + "its manifest was created, but " + why + "; nothing was removed: run hpf recover, "
        + "then hpf ls to see whether the change is there");
  }
}
