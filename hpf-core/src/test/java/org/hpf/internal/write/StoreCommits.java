package org.hpf.internal.write;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.io.ArchiveStorage;

/** The commit steps of a store without an atomic rename, for tests outside this package. */
public final class StoreCommits {
  private StoreCommits() {}

  /** Publishes {@code manifest}, built on {@code base}, as a writer's commit does. */
  public static List<String> publish(ArchiveStorage storage, Manifest manifest, Manifest base)
      throws IOException {
    return GenerationCommit.publish(storage, manifest, base);
  }

  /** Every file {@code generation}'s manifest names. */
  public static Set<String> filesOf(ArchiveStorage storage, long generation) throws IOException {
    return GarbageCollector.filesOf(storage, generation);
  }
}
