package org.hpf.internal.write;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.hpf.ConcurrentCommitException;
import org.hpf.NoCommittedGenerationException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.RemovalMarker;
import org.hpf.internal.io.ArchiveStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovery on a store that commits by conditional create (docs/CRASH-SAFETY.md, "Object
 * stores"). A writer there keeps no journal (an object is seen only once closed), so a change
 * that did not commit is dropped, never redone; its sources are still where they were, since
 * sources are deleted only after a commit. What it wrote is collected, together with the uploads
 * it left pending; a create that never committed is removed whole ({@link UncommittedCreate}).
 *
 * <p>The files it left are those no committed generation names beyond the fence: of the next
 * generation, or parts at or above the newest generation's part id floor. Their writer may only
 * be paused (past a lock that was broken), and could still publish that next generation. So the
 * newest generation is first committed again, unchanged, as the next one, with a floor above
 * every part there: from then on no writer can publish a generation that names those files, and
 * the collector removes them.
 */
final class FencingRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(FencingRecovery.class);
  /** Another writer committing in between makes recovery look again; this often at most. */
  private static final int ATTEMPTS = 3;

  private FencingRecovery() {}

  /** The manifest of {@code newest}, or null where a removal marker holds generation 1's name. */
  private static Manifest newestManifest(ArchiveStorage storage, long newest)
      throws IOException {
    try {
      return Manifest.read(storage, newest);
    } catch (NoCommittedGenerationException e) {
      if (newest == 1 && RemovalMarker.isAt(storage)) {
        return null; // a removal that died: finish it
      }
      throw e;
    }
  }

  static Recovery.Report run(ArchiveStorage storage, WriterOptions options) throws IOException {
    int uploads = storage.abortPendingUploads();
    int leftovers = 0;
    if (storage.list("").contains(ArchiveLayout.STAGING)) {
      // A job's driver holds the lock while its work is staged: this work's driver died. The
      // parts its tasks wrote in place are collected below.
      storage.deleteDirectory(ArchiveLayout.STAGING);
      leftovers++;
    }
    for (int attempt = 1; ; attempt++) {
      long newest = Recovery.committedGeneration(storage);
      Manifest current = newest == 0 ? null : newestManifest(storage, newest);
      if (current == null) {
        Recovery.Report removal = Recovery.removeUncommittedCreate(storage, leftovers);
        if (removal == null) {
          continue; // committed meanwhile: recover that archive
        }
        return removal.withAbortedUploads(uploads);
      }
      Set<String> referenced = GarbageCollector.filesOf(storage, current);
      int beyond = 0;
      int partIdsAbove = 0;
      for (String name : storage.list("")) {
        if (referenced.contains(name) || !GarbageCollector.isArchiveFile(name)) {
          continue;
        }
        partIdsAbove = Math.max(partIdsAbove, ArchiveLayout.partId(name) + 1);
        if (!GarbageCollector.noLongerPublishable(name, newest, current.partIdFloor())) {
          beyond++;
        }
      }
      long generation = newest;
      String dropped = null;
      if (beyond > 0) {
        try {
          ConditionalPublish.run(storage, current.republished(newest + 1, partIdsAbove),
              current);
        } catch (ConcurrentCommitException e) {
          if (attempt < ATTEMPTS) {
            LOG.info("{}: another writer committed while recovering; looking again: {}",
                storage.location(), e.getMessage());
            continue;
          }
          throw e;
        }
        generation = newest + 1;
        dropped = beyond + " files of a change that never committed; generation " + generation
            + " is generation " + newest + " again, so that their writer can never commit them";
      }
      int deleted = leftovers + GarbageCollector.collect(storage,
          options.settings().retainGenerations(), Set.of());
      return new Recovery.Report(0, false, generation, 0, 0, false, 0, deleted, dropped,
          List.of()).withAbortedUploads(uploads);
    }
  }
}
