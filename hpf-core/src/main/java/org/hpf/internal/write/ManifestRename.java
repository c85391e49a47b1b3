package org.hpf.internal.write;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveStorage;

/**
 * The commit point: renames a written temporary manifest to its generation's name. A rename that
 * throws may still have happened (on HDFS the NameNode can apply it and the reply be lost), so
 * its outcome is settled by reading the manifest back: a manifest of that generation holding
 * exactly the bytes written is this commit's, and the generation is committed.
 */
final class ManifestRename {
  private ManifestRename() {}

  /**
   * Renames {@code temporary} (which holds {@code bytes}) to the manifest of {@code generation}.
   * Returns normally once the generation is committed, with warnings if the rename reported a
   * failure that did not prevent it; throws the rename's failure if it is not committed, and
   * {@link UnsettledCommitException} if that cannot be told.
   */
  static List<String> run(ArchiveStorage storage, String temporary, long generation,
      byte[] bytes) throws IOException {
    String name = Manifest.fileName(generation);
    try {
      storage.rename(temporary, name);
      return List.of();
    } catch (IOException failure) {
      if (!holds(storage, name, bytes, generation, failure)) {
        throw failure;
      }
      List<String> warnings = new ArrayList<>();
      Warnings.add(warnings, storage.location(), "generation " + generation + " committed,"
          + " although renaming its manifest reported: " + failure.getMessage());
      return warnings;
    }
  }

  /**
   * True when {@code name} exists with exactly {@code bytes}: a publish that reported {@code
   * failure} happened after all.
   */
  static boolean holds(ArchiveStorage storage, String name, byte[] bytes,
      long generation, IOException failure) throws UnsettledCommitException {
    try {
      if (!storage.exists(name)) {
        return false;
      }
      try (ArchiveInput in = storage.open(name)) {
        return in.length() == bytes.length
            && Arrays.equals(in.readFully(0, bytes.length), bytes);
      }
    } catch (IOException | RuntimeException readBack) {
      throw new UnsettledCommitException(storage.location(), generation, failure, readBack);
    }
  }
}
