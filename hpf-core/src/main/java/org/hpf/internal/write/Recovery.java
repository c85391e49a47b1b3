package org.hpf.internal.write;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import org.hpf.CorruptArchiveException;
import org.hpf.DuplicateNameException;
import org.hpf.HashCollisionException;
import org.hpf.MemberAccess;
import org.hpf.NoCommittedGenerationException;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.JournalEntry;
import org.hpf.internal.format.JournalHeader;
import org.hpf.internal.format.JournalReader;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.RemovalMarker;
import org.hpf.internal.format.SealedFile;
import org.hpf.internal.format.SequentialInput;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings an archive back to a committed, consistent state after a writer died
 * (docs/CRASH-SAFETY.md). A journal of the generation after the newest committed one is rolled
 * forward: its records (a torn last one dropped) are committed as that generation, after parts
 * the dead writer never sealed are copied, up to their last journaled entry, into sealed parts.
 * Stale journals and every file no kept generation names are deleted. Runs under the writer
 * lock.
 */
public final class Recovery {
  private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

  /**
   * What recovery found and did; {@code warnings}, what failed after a roll-forward's commit
   * point without undoing it (cleanup that the next writer does instead); {@code lockTakenOver},
   * the dead writer whose lock was taken over to recover (null if none); {@code abortedUploads},
   * the uploads a writer left pending on an object store that were aborted.
   */
  public record Report(int staleJournals, boolean rolledForward, long generation, long entries,
      long droppedEntries, boolean tornTail, int salvagedParts, int filesDeleted,
      String rolledBack, boolean removedCreate, List<String> warnings, String lockTakenOver,
      int abortedUploads) {

    public Report {
      warnings = List.copyOf(warnings);
    }

    /** A report of an archive that is still there. */
    public Report(int staleJournals, boolean rolledForward, long generation, long entries,
        long droppedEntries, boolean tornTail, int salvagedParts, int filesDeleted,
        String rolledBack, List<String> warnings) {
      this(staleJournals, rolledForward, generation, entries, droppedEntries, tornTail,
          salvagedParts, filesDeleted, rolledBack, false, warnings, null, 0);
    }

    /**
     * Recovery removed what a create that never committed left ({@code filesDeleted} files): no
     * archive is there now, as before that create.
     */
    static Report removed(int filesDeleted) {
      return new Report(0, false, 0, 0, 0, false, 0, filesDeleted, null, true, List.of(), null,
          0);
    }

    /** This report with {@code more} warnings (those of closing the writer, say). */
    public Report withWarnings(List<String> more) {
      return new Report(staleJournals, rolledForward, generation, entries, droppedEntries,
          tornTail, salvagedParts, filesDeleted, rolledBack, removedCreate,
          Warnings.join(warnings, more), lockTakenOver, abortedUploads);
    }

    /** This report, saying that recovery first took over the lock of {@code holder} (or not). */
    Report withLockTakenOver(String holder) {
      return new Report(staleJournals, rolledForward, generation, entries, droppedEntries,
          tornTail, salvagedParts, filesDeleted, rolledBack, removedCreate, warnings, holder,
          abortedUploads);
    }

    /** This report, with {@code uploads} pending uploads aborted. */
    Report withAbortedUploads(int uploads) {
      return new Report(staleJournals, rolledForward, generation, entries, droppedEntries,
          tornTail, salvagedParts, filesDeleted, rolledBack, removedCreate, warnings,
          lockTakenOver, uploads);
    }

    public boolean didAnything() {
      return changedFiles() || lockTakenOver != null || abortedUploads > 0;
    }

    /** Whether recovery changed the archive's files (not only its lock and uploads). */
    private boolean changedFiles() {
      return staleJournals > 0 || rolledForward || filesDeleted > 0 || droppedEntries > 0
          || rolledBack != null || removedCreate;
    }

    /** What recovery did, in one line: the lock and uploads first, then the archive's files. */
    public String describe() {
      StringBuilder text = new StringBuilder();
      if (lockTakenOver != null) {
        text.append("took over the lock of ").append(lockTakenOver).append("; ");
      }
      if (abortedUploads > 0) {
        text.append("aborted ").append(abortedUploads).append(abortedUploads == 1
            ? " upload" : " uploads").append(" a writer left pending; ");
      }
      if (removedCreate) {
        return text.append("removed what a create that never committed left (")
            .append(filesDeleted).append(filesDeleted == 1 ? " file" : " files")
            .append("): there is no archive, as before that create; run it again").toString();
      }
      if (!changedFiles()) {
        return text.append(text.length() == 0 ? "nothing to recover"
            : "nothing else to recover").toString();
      }
      if (rolledForward) {
        text.append("committed generation ").append(generation).append(" from the journal: ")
            .append(entries).append(" files");
        if (droppedEntries > 0) {
          text.append(", ").append(droppedEntries).append(" unreadable records dropped");
        }
        if (tornTail) {
          text.append(", torn last record ignored");
        }
        if (salvagedParts > 0) {
          text.append(", ").append(salvagedParts).append(" unsealed parts salvaged");
        }
        text.append(" (the files the dead writer had made durable; to add the rest, run hpf "
            + "append --skip-existing with the same sources); ");
      }
      if (rolledBack != null) {
        text.append("rolled back the unfinished change, which could not have committed (")
            .append(rolledBack).append("); ");
      }
      if (staleJournals > 0) {
        text.append(staleJournals).append(" stale journals removed; ");
      }
      text.append(filesDeleted).append(" leftover files removed");
      return text.toString();
    }
  }

  /**
   * Logs what recovery did, once, when it is complete (with the lock taken over): programs see
   * it in their log; the hpf command prints it itself and keeps this logger quiet.
   */
  static void log(ArchiveStorage storage, Report report) {
    if (report.didAnything()) {
      LOG.warn("recovered {}: {}", storage.location(), report.describe());
    }
    for (String warning : report.warnings()) {
      LOG.warn("{}: {}", storage.location(), warning);
    }
  }

  private Recovery() {}

  /**
   * Recovers the archive under this writer's lock; {@code fenced} is what writers whose lock it
   * broke or took over may still add (on an object store, where their files appear late), and
   * {@code recovering} says that recovery is all the caller asked for.
   */
  static Report run(ArchiveStorage storage, WriterOptions options, ExecutorService pool,
      FencedParts fenced, boolean recovering) throws IOException {
    if (storage.profile() == org.hpf.internal.io.StorageProfile.CONDITIONAL_CREATE) {
      return FencingRecovery.run(storage, options, fenced, recovering);
    }
    long committed = committedGeneration(storage);
    if (committed == 1 && RemovalMarker.isAt(storage)) {
      Report removal = removeUncommittedCreate(storage, 0); // a removal that died: finish it
      if (removal != null) {
        return removal;
      }
    }
    int stale = 0;
    int leftovers = 0; // a dead job's staging, a lock of a writer that died releasing it
    if (storage.list("").contains(ArchiveLayout.STAGING)) {
      // A job's driver holds the lock while its work is staged: this work's driver died.
      storage.deleteDirectory(ArchiveLayout.STAGING);
      leftovers++;
    }
    String pending = null;
    for (String name : storage.list("")) {
      if (name.startsWith(ArchiveLayout.LOCK_RELEASED_PREFIX)) {
        storage.delete(name); // of a writer that died releasing its lock
        leftovers++;
      }
      if (!name.startsWith(ArchiveLayout.JOURNAL_PREFIX)) {
        continue;
      }
      long generation = ArchiveLayout.generationOf(name);
      if (generation >= 0 && generation <= committed) {
        storage.delete(name);
        stale++;
      } else if (generation == committed + 1) {
        pending = name;
      } else {
        throw new CorruptArchiveException(storage.location(name), 0, "journal of generation "
            + generation + " but the newest committed generation is " + committed);
      }
    }
    Report forward = pending == null ? null : rollForward(storage, pending, committed, options,
        pool);
    List<String> warnings = new ArrayList<>();
    int deleted = leftovers;
    try {
      deleted += GarbageCollector.collect(storage, options.settings()
          .retainGenerations(), Set.of());
    } catch (IOException | RuntimeException e) {
      if (forward == null || !forward.rolledForward) {
        throw e;
      }
      // The roll-forward is committed: this is cleanup, which the next writer retries.
      warnings.add("generation " + forward.generation + " committed, but removing files no "
          + "generation needs failed (the next writer retries): " + e);
    }
    Report report = forward == null
        ? new Report(stale, false, committed, 0, 0, false, 0, deleted, null, warnings)
        : new Report(stale, forward.rolledForward, forward.generation, forward.entries,
            forward.droppedEntries, forward.tornTail, forward.salvagedParts,
            deleted + forward.filesDeleted, forward.rolledBack,
            Warnings.join(forward.warnings, warnings));
    if (committed == 0 && !report.rolledForward()) {
      // A create that died before its journal held a record (or whose records could not have
      // committed): nothing to redo, so what it left goes, and the create can run again.
      Report removal = removeUncommittedCreate(storage, report.filesDeleted());
      if (removal != null) {
        return removal;
      }
    }
    return report;
  }

  /**
   * Removes what a create that never committed left ({@link UncommittedCreate}), after recovery
   * deleted {@code deletedBefore} files. Returns its report, or null where an archive turned out
   * to be there; refuses a directory that also holds what no create leaves, naming it.
   */
  static Report removeUncommittedCreate(ArchiveStorage storage, int deletedBefore)
      throws IOException {
    int removed = UncommittedCreate.remove(storage);
    if (removed == UncommittedCreate.ARCHIVE_THERE) {
      return null;
    }
    if (removed == UncommittedCreate.NOT_A_CREATE) {
      throw NoCommittedGenerationException.holdingForeignFiles(storage.location(),
          UncommittedCreate.foreignNames(storage));
    }
    return Report.removed(deletedBefore + removed);
  }

  static long committedGeneration(ArchiveStorage storage) throws IOException {
    long newest = 0;
    for (String name : storage.list(Manifest.DIR)) {
      newest = Math.max(newest, Manifest.generationOf(name));
    }
    return newest;
  }

  /** What the first pass over the journal learned about one part it points into. */
  private static final class PartCheck {
    final ArchiveInput input; // null when the part file is gone
    long end = PartWriter.PREAMBLE;
    long valid;
    int copyId = -1;

    PartCheck(ArchiveInput input) {
      this.input = input;
    }
  }

  /**
   * Rolls the journal forward in two streaming passes: the first checks each journaled entry
   * against its part and finds where each unsealed part's intact entries end; the second puts
   * the intact entries into the generation, pointed at salvaged copies where needed. Memory
   * holds a few numbers per part, not per entry.
   */
  private static Report rollForward(ArchiveStorage storage, String journalName, long committed,
      WriterOptions options, ExecutorService pool) throws IOException {
    storage.recoverLease(journalName);
    Manifest base = committed > 0 ? Manifest.read(storage, committed) : null;
    TreeMap<Integer, PartCheck> parts = new TreeMap<>();
    Set<Long> invalid = new HashSet<>(); // ordinals of entries whose bytes are not intact
    JournalReader.Scan scan;
    try (ArchiveInput in = storage.open(journalName)) {
      if (JournalReader.headerIsTorn(in, storage.location(journalName))) {
        // The writer died before its journal header was durable: nothing to redo.
        storage.delete(journalName);
        return new Report(0, false, committed, 0, 0, true, 0, 1, null, List.of());
      }
      long[] ordinal = {0};
      try {
        scan = JournalReader.scan(in, storage.location(journalName),
            base == null ? null : base.archiveId(), entry -> {
              if (entry.record().isTombstone()) {
                ordinal[0]++; // a deletion: no bytes to check
                return;
              }
              int partId = entry.record().part();
              if (base != null && base.part(partId) != null) {
                throw new CorruptArchiveException(storage.location(journalName), 0,
                    "journal points into committed part " + partId);
              }
              PartCheck part = parts.get(partId);
              if (part == null) {
                part = new PartCheck(openPart(storage, partId));
                parts.put(partId, part);
              }
              if (part.input != null && entryIsIntact(part.input, entry)) {
                part.valid++;
                part.end = Math.max(part.end,
                    entry.record().offset() + entry.record().entryLength());
              } else {
                invalid.add(ordinal[0]);
              }
              ordinal[0]++;
            });
      } catch (IOException | RuntimeException e) {
        closeAll(parts);
        throw e;
      }
    }
    try {
      return rollForward(storage, journalName, committed, base, scan, parts, invalid, options,
          pool);
    } finally {
      closeAll(parts);
    }
  }

  private static Report rollForward(ArchiveStorage storage, String journalName, long committed,
      Manifest base, JournalReader.Scan scan, TreeMap<Integer, PartCheck> parts,
      Set<Long> invalid, WriterOptions options, ExecutorService pool) throws IOException {
    JournalHeader header = scan.header();
    if (header.baseGeneration() != committed) {
      throw new CorruptArchiveException(storage.location(journalName), 0, "journal builds on "
          + "generation " + header.baseGeneration() + ", the newest committed is " + committed);
    }
    if (scan.entries() == 0) {
      storage.delete(journalName);
      return new Report(0, false, committed, 0, 0, scan.tornTail(), 0, 1, null, List.of());
    }
    Set<String> protect = new HashSet<>();
    protect.add(journalName);
    parts.keySet().forEach(id -> protect.add(ArchiveLayout.part(id)));
    // Files of the dead writer's unfinished commit would collide with the ones written now.
    int deleted = GarbageCollector.collect(storage, options.settings()
        .retainGenerations(), protect);

    ArchiveId id = scan.archiveId();
    long blockSize = base == null ? header.blockSize() : base.blockSize();
    int nextPart = ArchiveWriter.nextPartId(storage, base);
    int salvaged = 0;
    HpfReader reader = null;
    try (GenerationCommit commit = new GenerationCommit(storage, id, base,
        base == null ? header.hashAlgorithm() : base.hashAlgorithm(),
        base == null ? header.bucketCapacity() : base.bucketCapacity(), blockSize,
        base == null ? header.partSize() : base.partSize(), options)) {
      for (Map.Entry<Integer, PartCheck> e : parts.entrySet()) {
        PartCheck part = e.getValue();
        if (part.valid == 0) {
          continue;
        }
        if (SealedFile.footerMatches(part.input)) {
          commit.addPart(e.getKey(), part.input.length());
        } else {
          part.copyId = nextPart++;
          commit.addPart(part.copyId, copyPrefix(storage, id, part.input, part.end, part.copyId,
              blockSize));
          salvaged++;
        }
      }
      reader = base == null ? null
          : HpfReader.open(storage, new ReaderOptions(options.hasher()));
      HpfReader current = reader;
      long[] ordinal = {0};
      long[] recovered = {0};
      try (ArchiveInput in = storage.open(journalName)) {
        JournalReader.scan(in, storage.location(journalName), id, new JournalReader.Visitor() {
          @Override
          public void access(int accessId, MemberAccess access) throws IOException {
            commit.accesses().define(accessId, access, storage.location(journalName));
          }

          @Override
          public void entry(JournalEntry entry) throws IOException {
            if (entry.record().isTombstone()) {
              ordinal[0]++;
              IndexRecord gone = current == null ? null : current.recordOfHash(entry.name());
              if (gone != null) {
                commit.delete(entry.name(), gone);
                recovered[0]++;
              }
            } else if (!invalid.contains(ordinal[0]++)) {
              PartCheck part = parts.get(entry.record().part());
              IndexRecord record = part.copyId < 0 ? entry.record()
                  : moveTo(entry.record(), part.copyId);
              IndexRecord replaced = current == null ? null : current.recordOfHash(entry.name());
              commit.put(entry.name(), record, entry.mtimeMillis(), replaced);
              recovered[0]++;
            }
          }
        });
      }
      GenerationCommit.Result result;
      try {
        result = commit.commit(pool);
      } catch (DuplicateNameException | HashCollisionException e) {
        // The writer would have failed this commit itself: roll back, as its abort would have.
        storage.delete(journalName);
        int collected = GarbageCollector.collect(storage, options.settings().retainGenerations(),
            Set.of());
        return new Report(0, false, committed, 0, invalid.size(), scan.tornTail(), 0,
            deleted + collected + 1, e.getMessage(), List.of());
      }
      // Committed: what fails from here on is cleanup, and the next writer redoes it.
      List<String> warnings = new ArrayList<>(result.warnings());
      try {
        storage.delete(journalName);
      } catch (IOException | RuntimeException e) {
        warnings.add("generation " + commit.generation() + " committed from the journal, but "
            + "the journal could not be deleted (the next writer removes it): " + e);
      }
      return new Report(0, true, commit.generation(), recovered[0], invalid.size(),
          scan.tornTail(), salvaged, deleted, null, warnings);
    } finally {
      closeQuietly(reader);
    }
  }

  /** Closes a reader whose reading is over (its failure cannot change the archive). */
  private static void closeQuietly(HpfReader reader) {
    if (reader == null) {
      return;
    }
    try {
      reader.close();
    } catch (IOException | RuntimeException e) {
      LOG.warn("could not close the reader of the previous generation: {}", e.toString());
    }
  }

  private static ArchiveInput openPart(ArchiveStorage storage, int partId) throws IOException {
    String name = ArchiveLayout.part(partId);
    if (!storage.exists(name)) {
      return null;
    }
    storage.recoverLease(name);
    return storage.open(name);
  }

  private static void closeAll(Map<Integer, PartCheck> parts) {
    for (PartCheck part : parts.values()) {
      if (part.input != null) {
        try {
          part.input.close();
        } catch (IOException e) {
          // reading is over
        }
      }
    }
  }

  private static IndexRecord moveTo(IndexRecord record, int part) {
    return record.movedTo(part, record.offset());
  }

  /** The journaled entry's header is in the part, checksummed and naming the entry. */
  private static boolean entryIsIntact(ArchiveInput part, JournalEntry entry) {
    IndexRecord record = entry.record();
    int size = EntryHeader.size(entry.name().getBytes(StandardCharsets.UTF_8).length);
    if (record.offset() + record.entryLength() > part.length() || size > record.entryLength()) {
      return false;
    }
    try {
      byte[] bytes = part.readFully(record.offset(), size);
      EntryHeader header = EntryHeader.read(bytes, 0, size, part.name(), record.offset());
      return header.name().equals(entry.name()) && header.entryLength() == record.entryLength()
          && header.flags() == record.flags();
    } catch (IOException e) {
      return false;
    }
  }

  /** Copies a part's entries up to {@code end} into a new sealed part; returns its length. */
  private static long copyPrefix(ArchiveStorage storage, ArchiveId id, ArchiveInput source,
      long end, int copyId, long blockSize) throws IOException {
    try (PartWriter copy = new PartWriter(storage, id, copyId, blockSize)) {
      SequentialInput in = new SequentialInput(source, PartWriter.PREAMBLE, end, 1 << 20);
      byte[] chunk = new byte[1 << 16];
      int n;
      while ((n = in.read(chunk, 0, chunk.length)) > 0) {
        copy.output().write(chunk, 0, n);
      }
      return copy.seal();
    }
  }
}
