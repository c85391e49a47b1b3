package org.hpf.internal.read;

import java.io.IOException;
import org.hpf.internal.io.ArchiveInput;

/**
 * Opens a file of the reader's generation, of the length the generation records for it (-1 where
 * it records none), turning a missing file into a typed error.
 */
@FunctionalInterface
interface FileOpener {
  ArchiveInput open(String name, long length) throws IOException;
}
