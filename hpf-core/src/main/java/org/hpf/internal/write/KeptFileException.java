package org.hpf.internal.write;

import java.io.IOException;

/**
 * A delete refused because a generation the archive keeps names the file: whoever asked
 * believed it unreferenced, and was wrong (a paused writer, a race). Nothing was deleted.
 */
final class KeptFileException extends IOException {
  private static final long serialVersionUID = 1L;

  KeptFileException(String archive, String file, long generation) {
    super(archive + ": " + file + " was not deleted: generation " + generation
        + ", which the archive keeps, names it");
  }
}
