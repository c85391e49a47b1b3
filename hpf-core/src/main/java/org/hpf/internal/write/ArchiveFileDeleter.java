package org.hpf.internal.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hpf.NoCommittedGenerationException;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.ForwardingStorage;

/**
 * The one place a writer's deletes pass through, whoever makes them (an abort, a failed change's
 * clean-up, the collector, retention, recovery, the removal of a create that never committed):
 * at the moment of each delete it reads which generations the archive keeps, and refuses to
 * delete a file that any of them names ({@link KeptFileException}). So a writer's belief about
 * its own outcome, right or wrong, never decides that a kept file goes, as Lucene's
 * {@code IndexFileDeleter} deletes no file a kept commit references.
 *
 * <p>Manifests themselves (retention's, a withdrawn commit's), the lock and a job's staged work
 * are not checked: no generation names them. What the archive keeps is read again whenever the
 * list of manifests has changed since the last delete, so a run of deletes costs one listing
 * each.
 */
final class ArchiveFileDeleter extends ForwardingStorage {
  private List<String> listed;
  private KeptFiles kept;

  ArchiveFileDeleter(ArchiveStorage storage) {
    super(storage);
  }

  /** {@code storage}, with its deletes checked; itself where it is one already. */
  static ArchiveStorage around(ArchiveStorage storage) {
    return storage instanceof ArchiveFileDeleter ? storage : new ArchiveFileDeleter(storage);
  }

  @Override
  public void delete(String name) throws IOException {
    refuseIfKept(name);
    super.delete(name);
  }

  @Override
  public void deleteCreated(String name) throws IOException {
    refuseIfKept(name);
    super.deleteCreated(name);
  }

  @Override
  public void deleteDirectory(String dir) throws IOException {
    refuseIfKept(dir);
    super.deleteDirectory(dir);
  }

  @Override
  public void deleteRoot() throws IOException {
    for (String file : super.list(Manifest.DIR)) {
      long generation = Manifest.generationOf(file);
      if (generation > 0 && read(generation) != null) {
        throw new KeptFileException(location(), "the archive directory", generation);
      }
    }
    super.deleteRoot();
  }

  private void refuseIfKept(String name) throws IOException {
    if (!GarbageCollector.isArchiveFile(name)) {
      return; // manifests, the lock, staged work: named by no generation
    }
    KeptFiles now = keptNow();
    Long generation = now.keeper(name);
    if (generation != null) {
      throw new KeptFileException(location(), name, generation);
    }
  }

  /** Who keeps what, read again where the list of manifests changed. */
  private synchronized KeptFiles keptNow() throws IOException {
    List<String> manifests = super.list(Manifest.DIR);
    if (kept == null || !manifests.equals(listed)) {
      KeptFiles files = new KeptFiles();
      for (String file : manifests) {
        long generation = Manifest.generationOf(file);
        Manifest manifest = generation > 0 ? read(generation) : null;
        if (manifest != null) {
          files.add(generation, GarbageCollector.filesOf(this, manifest));
        }
      }
      kept = files;
      listed = manifests;
    }
    return kept;
  }

  /** The generation's manifest, or null where it is gone or a removal marker holds its name. */
  private Manifest read(long generation) throws IOException {
    try {
      return Manifest.read(this, generation);
    } catch (FileNotFoundException | NoCommittedGenerationException e) {
      return null;
    }
  }

  /** The files kept generations name, each with the newest generation naming it. */
  private static final class KeptFiles {
    private final Map<String, Long> keepers = new HashMap<>();

    void add(long generation, Set<String> files) {
      for (String file : files) {
        keepers.merge(file, generation, Math::max);
      }
    }

    Long keeper(String name) {
      return keepers.get(name);
    }
  }
}
