package org.hpf.internal.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.hpf.ConcurrentCommitException;
import org.hpf.NoCommittedGenerationException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.RemovalMarker;
import org.hpf.internal.io.ArchiveInput;
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
 *
 * <p>Where the lock of a writer that may still run was broken, its parts may appear later still
 * ({@link FencedParts}): the generation is committed again whether or not any of its files are
 * there yet, with the floor above all it may add, so that the names of the lock's rightful
 * holder and of the fenced writer never meet.
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

  /** The highest limit a build whose tasks write parts in place recorded, or 0. */
  private static int stagedPartIdLimit(ArchiveStorage storage) throws IOException {
    int limit = 0;
    for (String name : storage.list(ArchiveLayout.STAGING)) {
      if (!name.endsWith(StagedChange.PART_IDS)) {
        continue;
      }
      try (ArchiveInput in = storage.open(ArchiveLayout.STAGING + "/" + name)) {
        String text = new String(in.readFully(0, (int) Math.min(in.length(), 16)),
            StandardCharsets.UTF_8);
        try {
          limit = Math.max(limit, Integer.parseInt(text));
        } catch (NumberFormatException e) {
          throw new IOException(storage.location(ArchiveLayout.STAGING + "/" + name)
              + " does not hold a part id: \"" + text + "\"", e);
        }
      } catch (FileNotFoundException e) {
        // removed by its driver meanwhile, which ended its job first
      }
    }
    return limit;
  }

  /**
   * Recovers under this writer's lock. Uploads pending under the archive are aborted only where
   * this writer broke or took over a lock, or {@code recovering} (recovery is all it was asked
   * for): a lock that was free was released by its holder, whose uploads ended with it, and a
   * writer whose free lock is broken while it stalls must not abort the uploads of the writer
   * that broke it.
   */
  static Recovery.Report run(ArchiveStorage storage, WriterOptions options, FencedParts fenced,
      boolean recovering) throws IOException {
    int leftovers = 0;
    boolean staged = storage.list("").contains(ArchiveLayout.STAGING);
    if (staged) {
      fenced = fenced.withIdLimit(stagedPartIdLimit(storage));
    }
    int uploads = fenced.any() || recovering ? storage.abortPendingUploads() : 0;
    if (staged) {
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
      int partIdsAbove = current.partIdFloor();
      for (String name : storage.list("")) {
        partIdsAbove = Math.max(partIdsAbove, ArchiveLayout.partId(name) + 1);
        if (referenced.contains(name) || !GarbageCollector.isArchiveFile(name)) {
          continue;
        }
        if (!GarbageCollector.noLongerPublishable(name, newest, current.partIdFloor())) {
          beyond++;
        }
      }
      long generation = newest;
      String dropped = null;
      if (beyond > 0 || fenced.any()) {
        try {
          ConditionalPublish.run(storage,
              current.republished(newest + 1, fenced.floor(partIdsAbove)), current);
        } catch (ConcurrentCommitException e) {
          if (attempt < ATTEMPTS) {
            LOG.info("{}: another writer committed while recovering; looking again: {}",
                storage.location(), e.getMessage());
            continue;
          }
          throw e;
        }
        generation = newest + 1;
        dropped = beyond > 0 ? beyond + " files of a change that never committed; generation "
            + generation + " is generation " + newest + " again, so that their writer can never "
            + "commit them" : null;
      }
      int deleted = leftovers + GarbageCollector.collect(storage,
          options.settings().retainGenerations(), Set.of());
      return new Recovery.Report(0, false, generation, 0, 0, false, 0, deleted, dropped,
          List.of()).withAbortedUploads(uploads);
    }
  }
}
