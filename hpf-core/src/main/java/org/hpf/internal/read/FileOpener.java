package org.hpf.internal.read;

import java.io.IOException;
import org.hpf.internal.io.ArchiveInput;

/** Opens a file of the reader's generation, turning a missing file into a typed error. */
@FunctionalInterface
interface FileOpener {
  ArchiveInput open(String name) throws IOException;
}
