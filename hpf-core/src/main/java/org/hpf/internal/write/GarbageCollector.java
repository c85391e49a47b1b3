package org.hpf.internal.write;

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

/**
 * Deletes what no kept generation uses: manifests older than the newest {@code retain}, then
 * every archive file that none of the kept generations names (files of old generations,
 * leftovers of a crashed writer, temporary manifests). Runs only under the writer lock.
 */
final class GarbageCollector {
  private GarbageCollector() {}

  /**
   * @param protect names to keep even if unreferenced (a journal being recovered, its parts)
   * @return the number of files deleted
   */
  static int collect(ArchiveStorage storage, int retain, Set<String> protect)
      throws IOException {
    List<Long> generations = new ArrayList<>();
    for (String name : storage.list(Manifest.DIR)) {
      long generation = Manifest.generationOf(name);
      if (generation >= 0) {
        generations.add(generation);
      }
    }
    generations.sort(Comparator.reverseOrder());
    List<Long> kept = generations.subList(0, Math.min(retain, generations.size()));
    long newest = generations.isEmpty() ? 0 : generations.get(0);
    Set<String> referenced = new HashSet<>(protect);
    for (long generation : kept) {
      referenced.addAll(filesOf(storage, generation));
    }
    int deleted = 0;
    for (String name : storage.list(Manifest.DIR)) {
      long generation = Manifest.generationOf(name);
      boolean oldManifest = generation >= 0 && !kept.contains(generation);
      if (oldManifest || name.startsWith(".tmp-")) {
        storage.delete(Manifest.DIR + "/" + name);
        deleted++;
      }
    }
    for (String name : storage.list("")) {
      if (referenced.contains(name) || !isArchiveFile(name)) {
        continue;
      }
      if (name.startsWith(ArchiveLayout.JOURNAL_PREFIX)
          && journalGeneration(name) > newest) {
        continue; // an uncommitted journal is recovery's to handle, never garbage
      }
      storage.delete(name);
      deleted++;
    }
    return deleted;
  }

  /** Every file a committed generation names (manifest excluded). */
  static Set<String> filesOf(ArchiveStorage storage, long generation) throws IOException {
    Manifest manifest = Manifest.read(storage, generation);
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

  private static boolean isArchiveFile(String name) {
    return name.startsWith("part-") || name.startsWith("index-")
        || name.startsWith("directory-") || name.startsWith("names-")
        || name.startsWith(ArchiveLayout.JOURNAL_PREFIX);
  }

  static long journalGeneration(String name) {
    try {
      return Long.parseLong(name.substring(ArchiveLayout.JOURNAL_PREFIX.length()));
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
