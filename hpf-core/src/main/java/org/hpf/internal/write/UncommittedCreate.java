package org.hpf.internal.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.hpf.ArchiveExistsException;
import org.hpf.ConcurrentCommitException;
import org.hpf.NoCommittedGenerationException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.RemovalMarker;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.StorageProfile;

/**
 * Removes what a create that never committed, and has nothing to redo, left, so that no archive
 * is there, as before the create: its parts, index and names files, a job's staged work and
 * parts, and pending uploads. On an object store every such create (nothing is journaled there);
 * on HDFS and local disks one that died before its journal held a record.
 *
 * <p>Its writer may only be paused past a broken lock, and could still commit generation 1,
 * naming files it wrote. So a {@link RemovalMarker} takes generation 1's manifest name first (a
 * create, or on HDFS a rename, of the manifest fails while it is there), the files go next, and
 * the marker last. A writer that commits after that has lost its lock, which on HDFS and local
 * disks fences its rename, and on an object store finds files it names gone and withdraws its
 * manifest ({@link ConditionalPublish}). A removal that dies leaves the marker, which readers
 * report and the next recovery finishes.
 */
public final class UncommittedCreate {
  /** What {@link #remove} returns where an archive turned out to be there. */
  static final int ARCHIVE_THERE = -1;
  /** What {@link #remove} returns where the directory holds what no create leaves. */
  static final int NOT_A_CREATE = -2;
  /** How many names not an archive's {@link #foreignNames} gives at most. */
  private static final int FOREIGN_NAMES_SHOWN = 5;

  private UncommittedCreate() {}

  /**
   * Removes the create's files, under the lock the caller holds (which stays). Returns the
   * number of files removed, {@link #ARCHIVE_THERE} where generation 1, or a later one, turned
   * out to be committed, or {@link #NOT_A_CREATE} where the directory holds a file or directory
   * whose name no archive uses (a directory given by mistake for an archive): nothing is removed
   * then.
   */
  static int remove(ArchiveStorage storage) throws IOException {
    if (!foreignNames(storage).isEmpty()) {
      return NOT_A_CREATE;
    }
    if (!RemovalMarker.isAt(storage)) {
      try {
        GenerationCommit.writeSmallFile(storage, RemovalMarker.NAME, RemovalMarker.bytes());
      } catch (FileAlreadyExistsException | ConcurrentCommitException e) {
        if (!RemovalMarker.isAt(storage)) {
          return ARCHIVE_THERE; // the create committed after all
        }
      }
    }
    if (storage.list(Manifest.DIR).stream().anyMatch(n -> Manifest.generationOf(n) > 1)) {
      // Another create took the path and went on past generation 1, whose manifest retention
      // deleted: an archive is there. No generation can be committed after the marker without
      // one before it, so this check, made once the marker is there, is final.
      storage.delete(RemovalMarker.NAME);
      return ARCHIVE_THERE;
    }
    int removed = 0;
    for (String name : storage.list("")) {
      if (name.startsWith(ArchiveLayout.LOCK) || name.equals(Manifest.DIR)) {
        continue; // the lock is the caller's to release
      }
      storage.deleteDirectory(name); // a file, or a job's staged work
      removed++;
    }
    for (String name : storage.list(Manifest.DIR)) {
      String file = Manifest.DIR + "/" + name;
      if (!file.equals(RemovalMarker.NAME)) {
        storage.delete(file);
        removed++;
      }
    }
    // Last of all, after every upload the create may have started is gone.
    storage.abortPendingUploads();
    storage.delete(RemovalMarker.NAME);
    return removed;
  }

  /**
   * The first names in the directory that no archive uses, relative to it: anything but its
   * files, staged work and the lock; in {@code _manifests/}, anything but manifests and temporary
   * ones. Empty where there are none. A directory without {@code _manifests/} holds no create.
   */
  static List<String> foreignNames(ArchiveStorage storage) throws IOException {
    List<String> foreign = new ArrayList<>();
    List<String> top = storage.list("");
    for (String name : top) {
      if (!name.equals(Manifest.DIR) && !name.equals(ArchiveLayout.STAGING)
          && !name.startsWith(ArchiveLayout.LOCK) && !GarbageCollector.isArchiveFile(name)) {
        foreign.add(name);
      }
    }
    if (top.contains(Manifest.DIR)) {
      for (String name : storage.list(Manifest.DIR)) {
        if (Manifest.generationOf(name) < 0 && !name.startsWith(".tmp-")) {
          foreign.add(Manifest.DIR + "/" + name);
        }
      }
    } else {
      foreign.add("(no " + Manifest.DIR + " directory)");
    }
    return foreign.size() > FOREIGN_NAMES_SHOWN
        ? List.copyOf(foreign.subList(0, FOREIGN_NAMES_SHOWN)) : foreign;
  }

  /**
   * The refusal of a create where the archive's directory is not empty: one that says so where
   * recovery would remove what it holds.
   */
  public static ArchiveExistsException existsError(ArchiveStorage storage)
      throws IOException {
    List<String> top = storage.list("");
    long committed = top.contains(Manifest.DIR) ? Recovery.committedGeneration(storage) : -1;
    if (isOnlyStagedWork(top)) {
      return ArchiveExistsException.ofUncommittedCreate(storage.location(), false);
    }
    if (committed == 0 || committed == 1 && RemovalMarker.isAt(storage)) {
      return ArchiveExistsException.ofUncommittedCreate(storage.location(),
          storage.profile() != StorageProfile.CONDITIONAL_CREATE);
    }
    return new ArchiveExistsException(storage.location());
  }

  /**
   * Refuses a directory without {@code _manifests/} before a writer takes its lock or recovers
   * anything there: every create makes it first, so such a directory is no archive (one given by
   * mistake), and nothing in it is hpf's to collect. A path that does not exist is not found.
   * Whether it exists is asked only when the listing lacks the directory: on an object store
   * the question costs a HEAD and a LIST more.
   *
   * <p>One such directory is hpf's: one that holds nothing but {@code _staging/}. A MapReduce
   * build's late writers leave it after its driver removed a create that never committed (the
   * job's commit recording why it failed, a task attempt that started as the job was killed:
   * each creates the directories its file needs). It is removed, and the path not found.
   */
  static void requireManifestsDirectory(ArchiveStorage storage) throws IOException {
    List<String> top = storage.list("");
    if (top.contains(Manifest.DIR)) {
      return;
    }
    if (isOnlyStagedWork(top)) {
      removeStagedWork(storage);
      throw removedError(storage.location());
    }
    if (!storage.rootExists()) {
      throw new FileNotFoundException("archive does not exist: " + storage.location());
    }
    throw new NoCommittedGenerationException(storage.location(), false);
  }

  /** True where the directory holds a MapReduce build's staged work and nothing else. */
  private static boolean isOnlyStagedWork(List<String> top) {
    return top.equals(List.of(ArchiveLayout.STAGING));
  }

  /**
   * Removes staged work that late writers left where no create is, under a lock of its own: a
   * create that starts meanwhile makes {@code _manifests/} before it locks, so it either finds
   * this lock or is seen here, and its staged work stays.
   */
  private static void removeStagedWork(ArchiveStorage storage) throws IOException {
    try (WriterLock lock = WriterLock.acquire(storage, "removal of staged work no create "
        + "owns", 1)) {
      if (!isOnlyStagedWork(storage.list("").stream()
          .filter(name -> !name.startsWith(ArchiveLayout.LOCK)).toList())) {
        return;
      }
      storage.deleteDirectory(ArchiveLayout.STAGING);
    }
    storage.deleteEmptyDirectories(ArchiveLayout.STAGING); // and the archive directory
  }

  /** What opening a writer on the archive says once recovery removed such a create. */
  static FileNotFoundException removedError(String archive) {
    return new FileNotFoundException("archive does not exist: " + archive + " (a create that "
        + "never committed was there; recovery removed what it left)");
  }
}
