package org.hpf.write;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.hpf.format.ArchiveId;
import org.hpf.format.EntryHeader;
import org.hpf.format.IndexRecord;
import org.hpf.format.JournalEntry;
import org.hpf.format.JournalWriter;
import org.hpf.format.Manifest.PartInfo;
import org.hpf.io.ArchiveStorage;

/**
 * Merges sources into part files with one thread per part. Each thread takes the next source,
 * writes its entry, and every batch flushes its part (hflush) before journaling the batch's
 * records, so a journaled record always points at bytes the file system has.
 */
final class MergePhase {
  private final ArchiveStorage storage;
  private final ArchiveId archiveId;
  private final WriterOptions options;
  private final long blockSize;
  private final long partSize;
  private final JournalWriter journal;
  private final List<Source> sources;
  private final IndexRecord[] records;
  private final AtomicInteger nextSource = new AtomicInteger();
  private final AtomicInteger nextPart;
  private final AtomicBoolean failed = new AtomicBoolean();
  private final ConcurrentSkipListMap<Integer, Long> sealedParts = new ConcurrentSkipListMap<>();

  /** @param partSize the archive's part size (its manifest's, for an append) */
  MergePhase(ArchiveStorage storage, ArchiveId archiveId, WriterOptions options, long blockSize,
      long partSize, JournalWriter journal, List<Source> sources, int firstPartId) {
    this.partSize = partSize;
    this.storage = storage;
    this.archiveId = archiveId;
    this.options = options;
    this.blockSize = blockSize;
    this.journal = journal;
    this.sources = sources;
    this.records = new IndexRecord[sources.size()];
    this.nextPart = new AtomicInteger(firstPartId);
  }

  /** Runs the merge on {@code pool}; returns one record per source, in source order. */
  IndexRecord[] run(ExecutorService pool) throws IOException {
    int threads = (int) Math.max(1, Math.min(options.threads(), sources.size()));
    List<Future<Void>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      futures.add(pool.submit(() -> {
        mergeLoop();
        return null;
      }));
    }
    IOException failure = null;
    for (Future<Void> future : futures) {
      try {
        future.get();
      } catch (ExecutionException e) {
        failure = first(failure, e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failed.set(true);
        failure = first(failure, new InterruptedIOException("merge interrupted"));
      }
    }
    if (failure != null) {
      throw failure;
    }
    return records;
  }

  private static IOException first(IOException current, Throwable next) {
    if (current != null) {
      current.addSuppressed(next);
      return current;
    }
    if (next instanceof IOException io) {
      return io;
    }
    if (next instanceof RuntimeException re) {
      throw re;
    }
    if (next instanceof Error error) {
      throw error;
    }
    return new IOException(next);
  }

  /** Parts sealed by the merge, by id, with their lengths (live counts are the commit's job). */
  List<PartInfo> parts() {
    List<PartInfo> parts = new ArrayList<>();
    sealedParts.forEach((id, length) -> parts.add(new PartInfo(id, length, 0, 0)));
    return parts;
  }

  private void mergeLoop() throws IOException {
    EntryEncoder encoder = new EntryEncoder(options.compression(), options.hasher());
    List<JournalEntry> batch = new ArrayList<>();
    long batchBytes = 0;
    PartWriter part = null;
    try {
      int i;
      while (!failed.get() && (i = nextSource.getAndIncrement()) < sources.size()) {
        Source source = sources.get(i);
        long worstCase = EntryHeader.size(source.name().getBytes(StandardCharsets.UTF_8).length)
            + source.length() + EntryHeader.TRAILER_SIZE;
        if (part != null && !part.isEmpty()
            && part.position() + worstCase > partSize) {
          seal(part, batch);
          batchBytes = 0;
          part = null;
        }
        if (part == null) {
          part = new PartWriter(storage, archiveId, nextPart.getAndIncrement(), blockSize);
        }
        IndexRecord record = encoder.write(source, part);
        records[i] = record;
        batch.add(new JournalEntry(source.name(), record, source.mtimeMillis()));
        batchBytes += record.entryLength();
        options.progress().merged(source.length());
        if (batch.size() >= options.journalBatchFiles()
            || batchBytes >= options.journalBatchBytes()) {
          part.flush();
          journal.append(batch);
          batch.clear();
          batchBytes = 0;
        }
      }
      if (part != null && !failed.get()) {
        seal(part, batch);
        part = null;
      }
    } catch (IOException | RuntimeException | Error e) {
      failed.set(true);
      throw e;
    } finally {
      if (part != null) {
        part.close();
      }
    }
  }

  private void seal(PartWriter part, List<JournalEntry> batch) throws IOException {
    long length = part.seal();
    sealedParts.put(part.id(), length);
    journal.append(batch);
    batch.clear();
  }
}
