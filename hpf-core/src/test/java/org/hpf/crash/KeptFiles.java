package org.hpf.crash;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.write.StoreCommits;

/**
 * The schedule's own account of what the archive keeps, read straight from the storage at the
 * moment of each delete: every file that a committed manifest still there names. A delete of
 * such a file is a loss, recorded here whoever makes it; the schedule fails on any.
 */
final class KeptFiles {
  private final ArchiveStorage raw;
  private final List<String> losses = Collections.synchronizedList(new ArrayList<>());

  KeptFiles(ArchiveStorage raw) {
    this.raw = raw;
  }

  /** Records a loss where {@code name} is named by a kept generation. */
  void checkDelete(String name) {
    String keeper = keeperOf(name);
    if (keeper != null) {
      losses.add("delete of " + name + ", which " + keeper + " names");
    }
  }

  /** Records a loss where the archive has a committed generation. */
  void checkDeleteRoot() {
    try {
      for (String file : raw.list(Manifest.DIR)) {
        long generation = Manifest.generationOf(file);
        if (generation > 0 && readable(generation)) {
          losses.add("removal of the archive, which holds generation " + generation);
          return;
        }
      }
    } catch (IOException e) {
      losses.add("removal of the archive, whose generations could not be listed: " + e);
    }
  }

  private boolean readable(long generation) {
    try {
      Manifest.read(raw, generation);
      return true;
    } catch (IOException e) {
      return false; // a removal marker, or gone meanwhile
    }
  }

  /** The generation that names {@code name}, or null. */
  private String keeperOf(String name) {
    if (name.startsWith(Manifest.DIR)) {
      return null; // manifests are retention's; the files they name are checked
    }
    try {
      for (String file : raw.list(Manifest.DIR)) {
        long generation = Manifest.generationOf(file);
        if (generation <= 0) {
          continue;
        }
        Set<String> named;
        try {
          named = StoreCommits.filesOf(raw, generation);
        } catch (IOException e) {
          continue; // a removal marker, or deleted meanwhile
        }
        if (named.contains(name)) {
          return "generation " + generation;
        }
      }
    } catch (IOException e) {
      return "(the manifests could not be listed: " + e + ")";
    }
    return null;
  }

  List<String> losses() {
    return List.copyOf(losses);
  }
}
