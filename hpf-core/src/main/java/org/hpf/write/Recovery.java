package org.hpf.write;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import org.hpf.CorruptArchiveException;
import org.hpf.format.ArchiveId;
import org.hpf.format.ArchiveLayout;
import org.hpf.format.EntryHeader;
import org.hpf.format.IndexRecord;
import org.hpf.format.JournalEntry;
import org.hpf.format.JournalHeader;
import org.hpf.format.JournalReader;
import org.hpf.format.Manifest;
import org.hpf.format.SealedFile;
import org.hpf.format.SequentialInput;
import org.hpf.io.ArchiveInput;
import org.hpf.io.ArchiveStorage;
import org.hpf.read.HpfReader;
import org.hpf.read.ReaderOptions;
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

  /** What recovery found and did. */
  public record Report(int staleJournals, boolean rolledForward, long generation, int entries,
      int droppedEntries, boolean tornTail, int salvagedParts, int filesDeleted) {

    public boolean didAnything() {
      return staleJournals > 0 || rolledForward || filesDeleted > 0 || droppedEntries > 0;
    }

    public String describe() {
      if (!didAnything()) {
        return "nothing to recover";
      }
      StringBuilder text = new StringBuilder();
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
        text.append("; ");
      }
      if (staleJournals > 0) {
        text.append(staleJournals).append(" stale journals removed; ");
      }
      text.append(filesDeleted).append(" leftover files removed");
      return text.toString();
    }
  }

  private Recovery() {}

  static Report run(ArchiveStorage storage, WriterOptions options, ExecutorService pool)
      throws IOException {
    long committed = committedGeneration(storage);
    int stale = 0;
    String pending = null;
    for (String name : storage.list("")) {
      if (!name.startsWith(ArchiveLayout.JOURNAL_PREFIX)) {
        continue;
      }
      long generation = GarbageCollector.journalGeneration(name);
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
    int deleted = GarbageCollector.collect(storage, options.retainGenerations(), Set.of());
    Report report = forward == null
        ? new Report(stale, false, committed, 0, 0, false, 0, deleted)
        : new Report(stale, forward.rolledForward, forward.generation, forward.entries,
            forward.droppedEntries, forward.tornTail, forward.salvagedParts,
            deleted + forward.filesDeleted);
    if (report.didAnything()) {
      LOG.warn("recovered {}: {}", storage.location(), report.describe());
    }
    return report;
  }

  static long committedGeneration(ArchiveStorage storage) throws IOException {
    long newest = 0;
    for (String name : storage.list(Manifest.DIR)) {
      newest = Math.max(newest, Manifest.generationOf(name));
    }
    return newest;
  }

  private static Report rollForward(ArchiveStorage storage, String journalName, long committed,
      WriterOptions options, ExecutorService pool) throws IOException {
    storage.recoverLease(journalName);
    Manifest base = committed > 0 ? Manifest.read(storage, committed) : null;
    JournalReader.Contents contents;
    try (ArchiveInput in = storage.open(journalName)) {
      if (in.length() < JournalReader.PREAMBLE) {
        // The writer died before its journal header reached the file system: nothing to redo.
        storage.delete(journalName);
        return new Report(0, false, committed, 0, 0, true, 0, 1);
      }
      contents = JournalReader.read(in, storage.location(journalName),
          base == null ? null : base.archiveId());
    }
    JournalHeader header = contents.header();
    if (header.baseGeneration() != committed) {
      throw new CorruptArchiveException(storage.location(journalName), 0, "journal builds on "
          + "generation " + header.baseGeneration() + ", the newest committed is " + committed);
    }
    Map<String, JournalEntry> entries = new LinkedHashMap<>();
    for (JournalEntry entry : contents.entries()) {
      entries.put(entry.name(), entry);
    }
    if (entries.isEmpty()) {
      storage.delete(journalName);
      return new Report(0, false, committed, 0, 0, contents.tornTail(), 0, 1);
    }
    TreeMap<Integer, List<JournalEntry>> byPart = new TreeMap<>();
    for (JournalEntry entry : entries.values()) {
      byPart.computeIfAbsent(entry.record().part(), k -> new ArrayList<>()).add(entry);
    }
    Set<String> protect = new HashSet<>();
    protect.add(journalName);
    byPart.keySet().forEach(id -> protect.add(ArchiveLayout.part(id)));
    // Files of the dead writer's unfinished commit would collide with the ones written now.
    int deleted = GarbageCollector.collect(storage, options.retainGenerations(), protect);

    ArchiveId id = contents.archiveId();
    GenerationCommit commit = new GenerationCommit(storage, id, base,
        base == null ? header.bucketCapacity() : base.bucketCapacity(),
        base == null ? header.blockSize() : base.blockSize(),
        base == null ? header.partSize() : base.partSize(), options.hasher());
    int nextPart = ArchiveWriter.nextPartId(storage, base);
    int salvaged = 0;
    int dropped = 0;
    List<JournalEntry> recovered = new ArrayList<>();
    for (Map.Entry<Integer, List<JournalEntry>> group : byPart.entrySet()) {
      int partId = group.getKey();
      if (base != null && base.part(partId) != null) {
        throw new CorruptArchiveException(storage.location(journalName), 0, "journal points "
            + "into committed part " + partId);
      }
      String partName = ArchiveLayout.part(partId);
      if (!storage.exists(partName)) {
        dropped += group.getValue().size();
        continue;
      }
      storage.recoverLease(partName);
      List<JournalEntry> valid = new ArrayList<>();
      long end = PartWriter.PREAMBLE;
      try (ArchiveInput part = storage.open(partName)) {
        for (JournalEntry entry : group.getValue()) {
          if (entryIsIntact(part, entry)) {
            valid.add(entry);
            end = Math.max(end, entry.record().offset() + entry.record().entryLength());
          } else {
            dropped++;
          }
        }
        if (valid.isEmpty()) {
          continue;
        }
        if (SealedFile.footerMatches(part)) {
          commit.addPart(partId, part.length());
        } else {
          int copyId = nextPart++;
          commit.addPart(copyId, copyPrefix(storage, id, part, end, copyId,
              base == null ? header.blockSize() : base.blockSize()));
          valid.replaceAll(e -> new JournalEntry(e.name(), moveTo(e.record(), copyId),
              e.mtimeMillis()));
          salvaged++;
        }
      }
      recovered.addAll(valid);
    }
    HpfReader reader = base == null ? null
        : HpfReader.open(storage, new ReaderOptions(options.hasher()));
    try {
      for (JournalEntry entry : recovered) {
        IndexRecord replaced = reader == null ? null : reader.record(entry.name());
        commit.put(entry.name(), entry.record(), entry.mtimeMillis(), replaced);
      }
    } finally {
      if (reader != null) {
        reader.close();
      }
    }
    commit.commit(pool);
    storage.delete(journalName);
    return new Report(0, true, commit.generation(), recovered.size(), dropped,
        contents.tornTail(), salvaged, deleted);
  }

  private static IndexRecord moveTo(IndexRecord record, int part) {
    return new IndexRecord(record.hash(), part, record.flags(), record.offset(),
        record.entryLength(), record.originalLength());
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
