package org.hpf.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * Temporary directories in memory ({@code /dev/shm}) where the machine has it, else in the
 * default place. For tests that write and sync thousands of small local files but do not test
 * the disk: the crash sweeps simulate what a sync keeps themselves (they cut files back to their
 * last sync point), the corruption and fuzz tests damage bytes on purpose, and for all of them a
 * disk's real sync only adds waiting.
 */
public final class MemoryTempDirs implements TempDirFactory {
  private static final Path MEMORY = Path.of("/dev/shm");

  @Override
  public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context)
      throws IOException {
    if (Files.isDirectory(MEMORY) && Files.isWritable(MEMORY)) {
      return Files.createTempDirectory(MEMORY, "hpf-test");
    }
    return Files.createTempDirectory("junit");
  }
}
