package org.hpf.internal.write;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.hpf.MemberAccess;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.JournalEntry;
import org.hpf.internal.format.JournalHeader;
import org.hpf.internal.format.JournalWriter;
import org.hpf.internal.format.Manifest.PartInfo;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.StorageProfile;

/**
 * Members being added to an archive, shared by create and append: each is merged into a part
 * as it comes (journaled), its name and record spilled to the next generation's commit; the
 * commit builds the index and publishes the generation, and only then drops the journal. An
 * abort removes the journal, so nothing of it is ever rolled forward.
 */
final class Addition {
  /**
   * What was merged and committed; {@code warnings}, what failed after the commit point (it did
   * not undo the commit).
   */
  record Outcome(GenerationCommit.Result commit, List<PartInfo> parts, long files,
      long replaced, long deleted, long bytes, List<String> warnings) {}

  private final ArchiveStorage storage;
  private final GenerationCommit commit;
  private final String journalName;
  /** False where a crashed change is dropped rather than redone: nothing is written. */
  private final boolean journaled;
  private final JournalWriter journal;
  private final MergeLanes lanes;
  private final WriterOptions options;
  private final AtomicLong files = new AtomicLong();
  private final AtomicLong replaced = new AtomicLong();
  private final AtomicLong deleted = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();
  /** Deletions staged and not journaled yet (at most a journal batch of them). */
  private final List<JournalEntry> pendingDeletions = new ArrayList<>();
  private volatile boolean deletionsPending;
  /** The access of members added without one. */
  private final DefaultAccess defaultAccess;

  /** The writer's default access, found when first needed. */
  @FunctionalInterface
  interface DefaultAccess {
    MemberAccess get() throws IOException;
  }

  /**
   * Starts an addition: writes the journal's header. Takes ownership of {@code commit}, which is
   * closed (and the journal removed) if this fails.
   */
  Addition(ArchiveStorage storage, ArchiveId id, GenerationCommit commit, WriterOptions options,
      long blockSize, int firstPartId, JournalHeader header, DefaultAccess defaultAccess)
      throws IOException {
    this.storage = storage;
    this.defaultAccess = defaultAccess;
    this.commit = commit;
    this.options = options;
    this.journalName = ArchiveLayout.journal(commit.generation());
    // An object store shows an object only once it is closed, so a journal there could never
    // be read after a crash: a crashed change is dropped instead (docs/CRASH-SAFETY.md).
    this.journaled = storage.profile() != StorageProfile.CONDITIONAL_CREATE;
    this.journal = startJournal(id, header);
    commit.accesses().journalTo(journal::appendAccess);
    // On HDFS the merge's parts may be LazyPersist (WriteSettings#partStoragePolicy).
    this.lanes = new MergeLanes(storage, id, options, blockSize,
        header.partSize(), journal, firstPartId);
  }

  /**
   * Creates the journal and writes its header. On failure nothing is left that recovery could
   * find: a journal with just a header would otherwise be rolled forward as an empty change.
   */
  private JournalWriter startJournal(ArchiveId id, JournalHeader header) throws IOException {
    ArchiveOutput out = null;
    try {
      out = journaled ? storage.create(journalName, 0) : ArchiveOutput.discarding();
      return new JournalWriter(out, id, header);
    } catch (IOException | RuntimeException | Error e) {
      try {
        if (out != null) {
          out.close();
        }
      } catch (IOException | RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      try {
        deleteJournal();
      } catch (IOException | RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      } finally {
        commit.close();
      }
      throw e;
    }
  }

  /**
   * Merges one member (thread-safe: concurrent callers write different parts).
   *
   * @param existing the member's current record, which this one replaces, or null
   */
  void add(EntryEncoder.Member member, IndexRecord existing) throws IOException {
    journalDeletions();
    MemberAccess access = member.access() != null ? member.access() : defaultAccess.get();
    IndexRecord record = lanes.write(member, commit.accesses().idOf(access));
    commit.put(member.name(), record, member.mtimeMillis(), existing, false);
    files.incrementAndGet();
    bytes.addAndGet(member.length());
    if (existing != null) {
      replaced.incrementAndGet();
    }
    options.settings().progress().merged(member.length());
  }

  /**
   * Deletes a member whose current record is {@code existing}, in the same generation as the
   * members added. Deletions are journaled in batches, as merged members are: a batch is written
   * and synced when it is full, before the next member is merged and before the commit, so
   * recovery never redoes a member without the deletions staged before it.
   */
  void delete(String name, IndexRecord existing) throws IOException {
    boolean full;
    synchronized (pendingDeletions) {
      pendingDeletions.add(new JournalEntry(name, commit.tombstone(name),
          IndexRecord.MTIME_UNKNOWN));
      deletionsPending = true;
      full = pendingDeletions.size() >= options.journalBatchFiles();
    }
    commit.delete(name, existing);
    deleted.incrementAndGet();
    if (full) {
      journalDeletions();
    }
  }

  /** Journals the deletions staged since the last batch, as one synced batch. */
  private void journalDeletions() throws IOException {
    if (!deletionsPending) {
      return;
    }
    synchronized (pendingDeletions) {
      if (!pendingDeletions.isEmpty()) {
        journal.append(pendingDeletions);
        pendingDeletions.clear();
      }
      deletionsPending = false;
    }
  }

  long files() {
    return files.get();
  }

  long deletions() {
    return deleted.get();
  }

  /**
   * Seals the parts, builds the index, publishes the generation and drops the journal. Throws
   * only if the generation was not committed (then {@link #abort} drops the rest), or if that
   * is unknown ({@link UnsettledCommitException}: the journal is gone, the parts stay).
   * {@code clock} takes the time of sealing ({@link Phase#MERGE}), of the commit's phases and
   * of removing the journal ({@link Phase#CLEANUP}).
   */
  Outcome commit(ExecutorService pool, PhaseClock clock) throws IOException {
    List<PartInfo> parts;
    try (PhaseClock.Section s = clock.in(Phase.MERGE)) {
      journalDeletions();
      parts = lanes.sealAll();
      journal.close();
    }
    options.settings().progress().phase("indexing");
    for (PartInfo part : parts) {
      commit.addPart(part);
    }
    GenerationCommit.Result result;
    try {
      result = commit.commit(pool, clock);
    } catch (UnsettledCommitException e) {
      // Committed or not, the journal must not be rolled forward again; the parts may be named.
      forget(e);
      throw e;
    }
    List<String> warnings = new ArrayList<>(result.warnings());
    try (PhaseClock.Section s = clock.in(Phase.CLEANUP)) {
      deleteJournal();
    } catch (IOException | RuntimeException e) {
      // The journal of a committed generation is ignored and collected by the next writer.
      Warnings.add(warnings, storage.location(), "generation " + commit.generation()
          + " committed, but its journal could not be deleted (the next writer removes it): "
          + e);
    }
    return new Outcome(result, parts, files.get(), replaced.get(), deleted.get(), bytes.get(),
        warnings);
  }

  private void deleteJournal() throws IOException {
    if (journaled) {
      storage.delete(journalName);
    }
  }

  /** Drops the journal and the scratch files, and nothing else. */
  private void forget(IOException cause) {
    try {
      deleteJournal();
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
    try {
      commit.close();
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  /**
   * Drops everything added: unsealed parts are closed, the journal is deleted first (so no
   * recovery can roll it forward), then every part this addition created.
   */
  void abort() throws IOException {
    lanes.closeQuietly();
    try {
      journal.close();
    } catch (IOException e) {
      // the journal is deleted next
    }
    try {
      deleteJournal();
      for (int part : lanes.partsCreated()) {
        storage.deleteCreated(ArchiveLayout.part(part));
      }
    } finally {
      commit.close();
    }
  }
}
