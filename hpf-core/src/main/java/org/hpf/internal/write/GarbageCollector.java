package org.hpf.internal.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.format.Manifest.NamesSegment;
import org.hpf.internal.format.Manifest.PartInfo;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.StorageProfile;

/**
 * Deletes what no kept generation uses: manifests older than the newest {@code retain}, then
 * every archive file that none of the kept generations names (files of old generations,
 * leftovers of a crashed writer, temporary manifests). Runs only under the writer lock.
 *
 * <p>On a store that commits by conditional create the lock only keeps honest writers apart:
 * a writer paused past a broken lock may still be writing. So only files that no writer can
 * publish any more are deleted: those of generations up to the newest committed one (a writer
 * building one of them would have to create a manifest that exists), and parts below the newest
 * generation's part id floor (no writer building on it or later creates those), and files this
 * writer itself created (a failed change's). Manifests go oldest first, never the newest, which
 * {@link ConditionalPublish} relies on.
 */
final class GarbageCollector {
  private GarbageCollector() {}

  /**
   * @param protect names to keep even if unreferenced (a journal being recovered, its parts)
   * @return the number of files deleted
   */
  static int collect(ArchiveStorage storage, int retain, Set<String> protect)
      throws IOException {
    Kept keeping = kept(storage, retain);
    List<Long> generations = keeping.generations();
    List<Long> kept = generations.subList(0, keeping.manifests().size());
    long newest = generations.isEmpty() ? 0 : generations.get(0);
    Set<String> referenced = new HashSet<>(protect);
    int partIdFloor = Integer.MAX_VALUE;
    for (Manifest manifest : keeping.manifests()) {
      referenced.addAll(filesOf(storage, manifest));
      if (manifest.generation() == newest) {
        partIdFloor = manifest.partIdFloor();
      }
    }
    boolean fenced = storage.profile() == StorageProfile.CONDITIONAL_CREATE;
    int deleted = 0;
    List<Long> old = new ArrayList<>(generations.subList(kept.size(), generations.size()));
    old.sort(Comparator.naturalOrder());
    for (long generation : old) {
      storage.delete(Manifest.fileName(generation));
      deleted++;
    }
    for (String name : storage.list(Manifest.DIR)) {
      if (name.startsWith(".tmp-")) {
        storage.delete(Manifest.DIR + "/" + name);
        deleted++;
      }
    }
    for (String name : storage.list("")) {
      if (referenced.contains(name) || !isArchiveFile(name)) {
        continue;
      }
      if (name.startsWith(ArchiveLayout.JOURNAL_PREFIX)
          && ArchiveLayout.generationOf(name) > newest) {
        continue; // an uncommitted journal is recovery's to handle, never garbage
      }
      if (fenced && !noLongerPublishable(name, newest, partIdFloor)) {
        // Unless this writer created it (a change that failed): no other writer's generation
        // can name a file whose create succeeded here.
        if (storage.createdHere(name)) {
          deleted += deleteUnlessKept(() -> storage.deleteCreated(name));
        }
        continue;
      }
      deleted += deleteUnlessKept(() -> storage.delete(name));
    }
    return deleted;
  }

  /** Every committed generation listed, newest first, and the manifests of the kept ones. */
  private record Kept(List<Long> generations, List<Manifest> manifests) {}

  /** Listings of the manifests a collection makes before it gives up on a moving archive. */
  private static final int LISTINGS = 5;

  /**
   * The generations there and the manifests of the newest {@code retain}. On an object store
   * writers commit side by side, and another writer's retention may remove a manifest listed
   * here once it committed a newer one: then the manifests are listed again.
   */
  private static Kept kept(ArchiveStorage storage, int retain) throws IOException {
    for (int listing = 1; ; listing++) {
      List<Long> generations = new ArrayList<>();
      for (String name : storage.list(Manifest.DIR)) {
        long generation = Manifest.generationOf(name);
        if (generation >= 0) {
          generations.add(generation);
        }
      }
      generations.sort(Comparator.reverseOrder());
      try {
        List<Manifest> manifests = new ArrayList<>();
        for (long generation : generations.subList(0, Math.min(retain, generations.size()))) {
          manifests.add(Manifest.read(storage, generation));
        }
        return new Kept(generations, manifests);
      } catch (FileNotFoundException e) {
        if (listing == LISTINGS) {
          throw e;
        }
      }
    }
  }

  /** A delete of one file. */
  @FunctionalInterface
  private interface Delete {
    void run() throws IOException;
  }

  /**
   * Runs a delete; 1 where it deleted, 0 where a generation committed since the listing names
   * the file ({@link ArchiveFileDeleter}): it is no garbage.
   */
  private static int deleteUnlessKept(Delete delete) throws IOException {
    try {
      delete.run();
      return 1;
    } catch (KeptFileException e) {
      return 0;
    }
  }

  /**
   * True when no writer can publish a generation that names {@code name} any more, once
   * {@code newest} is committed with {@code partIdFloor}.
   */
  static boolean noLongerPublishable(String name, long newest, int partIdFloor) {
    if (name.startsWith("part-")) {
      int id = ArchiveLayout.partId(name);
      return id >= 0 && id < partIdFloor;
    }
    long generation = ArchiveLayout.generationOf(name);
    return generation >= 0 && generation <= newest;
  }

  /** Every file {@code generation}'s manifest names (manifest excluded). */
  static Set<String> filesOf(ArchiveStorage storage, long generation) throws IOException {
    return filesOf(storage, Manifest.read(storage, generation));
  }

  /** Every file {@code manifest} names (itself excluded). */
  static Set<String> filesOf(ArchiveStorage storage, Manifest manifest) throws IOException {
    Set<String> files = new HashSet<>();
    for (Manifest.Layer layer : manifest.layers()) {
      if (layer.directoryFile() != null) { // a version 1 manifest's directory file
        files.add(layer.directoryFile());
      }
    }
    for (NamesSegment segment : manifest.namesSegments()) {
      files.add(segment.file());
    }
    for (PartInfo part : manifest.parts()) {
      files.add(ArchiveLayout.part(part.id()));
    }
    for (org.hpf.internal.format.DirectoryFile directory : manifest.readDirectories(storage)) {
      for (BucketRef bucket : directory.buckets()) {
        if (bucket.recordCount() > 0) {
          files.add(bucket.indexFile());
        }
      }
    }
    return files;
  }

  /**
   * True for the names of parts, index, directory, names and journal files, spelled exactly as
   * hpf writes them: a file of another name (a job's {@code part-r-00000}) is never collected.
   */
  static boolean isArchiveFile(String name) {
    return ArchiveLayout.partId(name) >= 0 || ArchiveLayout.generationOf(name) >= 0;
  }
}
