package org.hpf.internal.write;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.hpf.LimitExceededException;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.JournalEntry;
import org.hpf.internal.format.JournalWriter;
import org.hpf.internal.format.Manifest.PartInfo;
import org.hpf.internal.io.ArchiveStorage;

/**
 * The part files members are merged into: one lane per thread adding at the same time, each
 * writing its own part, so threads never share a part. A lane journals its members in batches,
 * after syncing (hsync) its part, so a journaled record always points at bytes that are
 * durable; it rolls over to a new part when the next member would pass the part size.
 */
final class MergeLanes {
  /** One part being written, its unjournaled batch and its live counts. */
  private final class Lane {
    final EntryEncoder encoder = new EntryEncoder(options.settings().compression(),
        options.hasher(journal.header().hashAlgorithm()));
    final List<JournalEntry> batch = new ArrayList<>();
    PartWriter part;
    long batchBytes;
    long liveEntries;
    long liveBytes;

    IndexRecord write(EntryEncoder.Member member, int access) throws IOException {
      long worstCase = EntryHeader.maxEntryLength(
          member.name().getBytes(StandardCharsets.UTF_8).length, member.length());
      if (part != null && !part.isEmpty() && part.position() + worstCase > partSize) {
        breakingOnFailure(this::seal);
      }
      if (part == null) {
        part = newPart();
        synchronized (written) {
          written.add(part.id());
        }
      }
      long start = part.position();
      IndexRecord record;
      try {
        record = encoder.write(member, part).withAccess(access);
      } catch (IOException | RuntimeException | Error e) {
        if (part.position() != start) {
          broken = e; // a partial entry is in the part: no further entry may follow it
        }
        throw e;
      }
      batch.add(new JournalEntry(member.name(), record, member.mtimeMillis()));
      batchBytes += record.entryLength();
      liveEntries++;
      liveBytes += record.entryLength();
      if (batch.size() >= options.journalBatchFiles()
          || batchBytes >= options.journalBatchBytes()) {
        breakingOnFailure(this::journalBatch);
      }
      return record;
    }

    /**
     * A new part under the next free id. A name already taken is skipped: a writer whose lock
     * this one took over may still create the part it had picked before it stopped, and must
     * not make the holder fail (the fenced writer's own create of a taken name fails as lock
     * lost, since the storage confirms the lock when a create fails).
     */
    private PartWriter newPart() throws IOException {
      for (int taken = 0; ; taken++) {
        int id = nextPart.getAndIncrement();
        if (id >= partLimit) {
          throw new LimitExceededException("members need more than the " + (partLimit
              - firstPartId) + " part files set aside for them (ids " + firstPartId + " to "
              + (partLimit - 1) + "); a source grew after it was listed?");
        }
        try {
          return PartWriter.merged(storage, archiveId, id, blockSize);
        } catch (FileAlreadyExistsException e) {
          if (taken >= MAX_TAKEN_NAMES) {
            throw e;
          }
        }
      }
    }

    /** Syncs the part, then journals the batch: a journaled record's bytes are durable. */
    private void journalBatch() throws IOException {
      part.sync();
      journal.append(batch);
      batch.clear();
      batchBytes = 0;
    }

    void seal() throws IOException {
      long length = part.seal();
      journal.append(batch);
      batch.clear();
      batchBytes = 0;
      synchronized (sealed) {
        sealed.add(new PartInfo(part.id(), length, liveEntries, liveBytes));
      }
      part = null;
      liveEntries = 0;
      liveBytes = 0;
    }
  }

  /** A step of a lane that leaves its part or the journal in no known state if it fails. */
  @FunctionalInterface
  private interface LaneStep {
    void run() throws IOException;
  }

  /**
   * Runs {@code step}; if it fails, no member may be added any more: the part may hold a
   * footer, or the journal a partial batch. Marked before the failure leaves the lane, so no
   * other thread takes the lane up again.
   */
  private void breakingOnFailure(LaneStep step) throws IOException {
    try {
      step.run();
    } catch (IOException | RuntimeException | Error e) {
      broken = e;
      throw e;
    }
  }

  private final ArchiveStorage storage;
  private final ArchiveId archiveId;
  private final WriterOptions options;
  private final long blockSize;
  /**
   * Part names in a row found taken before a merge gives up: a fenced writer takes at most one
   * per merge thread it had, so more means something else is wrong.
   */
  private static final int MAX_TAKEN_NAMES = 64;

  private final long partSize;
  private final JournalWriter journal;
  private final int firstPartId;
  private final int partLimit;
  private final AtomicInteger nextPart;
  private final ConcurrentLinkedDeque<Lane> idle = new ConcurrentLinkedDeque<>();
  private final List<Lane> all = new ArrayList<>();
  private final List<Integer> written = new ArrayList<>();
  private final List<PartInfo> sealed = new ArrayList<>();
  private volatile Throwable broken;

  /** @param partSize the archive's part size (its manifest's, for an append) */
  MergeLanes(ArchiveStorage storage, ArchiveId archiveId, WriterOptions options, long blockSize,
      long partSize, JournalWriter journal, int firstPartId) {
    this(storage, archiveId, options, blockSize, partSize, journal, firstPartId,
        Integer.MAX_VALUE);
  }

  /** As above, with part ids below {@code partLimit} only (merges that run side by side). */
  MergeLanes(ArchiveStorage storage, ArchiveId archiveId, WriterOptions options, long blockSize,
      long partSize, JournalWriter journal, int firstPartId, int partLimit) {
    this.firstPartId = firstPartId;
    this.partLimit = partLimit;
    this.storage = storage;
    this.archiveId = archiveId;
    this.options = options;
    this.blockSize = blockSize;
    this.partSize = partSize;
    this.journal = journal;
    this.nextPart = new AtomicInteger(firstPartId);
  }

  /**
   * Writes a member into the calling thread's lane; returns its record, of access class
   * {@code access}.
   */
  IndexRecord write(EntryEncoder.Member member, int access) throws IOException {
    checkUsable();
    Lane lane = idle.pollFirst();
    if (lane == null) {
      lane = new Lane();
      synchronized (all) {
        all.add(lane);
      }
    }
    try {
      return lane.write(member, access);
    } finally {
      if (broken == null) {
        idle.addFirst(lane);
      }
    }
  }

  private void checkUsable() throws AbandonedMergeException {
    Throwable cause = broken;
    if (cause != null) {
      throw new AbandonedMergeException(cause);
    }
  }

  /** Seals every lane's part; returns every sealed part with its live counts. */
  List<PartInfo> sealAll() throws IOException {
    checkUsable();
    synchronized (all) {
      if (idle.size() != all.size()) {
        throw new IllegalStateException("members are still being added");
      }
      for (Lane lane : all) {
        if (lane.part != null) {
          breakingOnFailure(lane::seal);
        }
      }
    }
    synchronized (sealed) {
      return new ArrayList<>(sealed);
    }
  }

  /** Ids of every part file a lane created, sealed or not (for cleanup). */
  List<Integer> partsCreated() {
    synchronized (written) {
      return new ArrayList<>(written);
    }
  }

  /** Closes unsealed parts without sealing them (abort). */
  void closeQuietly() {
    synchronized (all) {
      for (Lane lane : all) {
        if (lane.part != null) {
          try {
            lane.part.close();
          } catch (IOException e) {
            // being abandoned
          }
          lane.part = null;
        }
      }
    }
  }
}
