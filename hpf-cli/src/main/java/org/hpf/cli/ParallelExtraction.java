package org.hpf.cli;

import com.google.common.base.Throwables;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.fs.Path;
import org.hpf.FileNotInArchiveException;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.read.HpfReader;

/**
 * Writes members to their files with several threads. Members are taken in batches; each batch
 * is looked up in the index together, sorted by where the entries lie in the parts and
 * written in that order, so the parts are read front to back rather than in name order. The
 * first failure stops the work: members not started are not written, and it is thrown.
 */
final class ParallelExtraction implements AutoCloseable {
  /** Members per batch: a batch's records stay in the reader's record cache until written. */
  static final int BATCH = 4096;
  /** A record cache that holds two batches' records (184 bytes each). */
  static final long RECORD_CACHE_BYTES = 4L << 20;

  private record Member(NameEntry entry, IndexRecord record) {}

  /** Where a member's file goes (the names were checked before): safe for many threads. */
  @FunctionalInterface
  interface Targets {
    Path of(String name) throws IOException;
  }

  private final HpfReader reader;
  private final Targets targets;
  private final RecordedAccess accesses;
  private final ExtractDestination destination;
  private final Progress progress;
  private final ExecutorService pool;
  private final List<NameEntry> entries = new ArrayList<>(BATCH);

  ParallelExtraction(HpfReader reader, RecordedAccess accesses, Targets targets,
      ExtractDestination destination, Progress progress, int threads) {
    this.reader = reader;
    this.accesses = accesses;
    this.targets = targets;
    this.destination = destination;
    this.progress = progress;
    this.pool = Executors.newFixedThreadPool(threads, runnable -> {
      Thread thread = new Thread(runnable, "hpf-extract");
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Queues a member; writes a batch when one is full. */
  void add(NameEntry entry) throws IOException {
    entries.add(entry);
    if (entries.size() == BATCH) {
      flush();
    }
  }

  /** Writes what is queued. */
  void finish() throws IOException {
    flush();
  }

  private void flush() throws IOException {
    List<Member> batch = lookUp();
    entries.clear();
    batch.sort(Comparator.comparingInt((Member m) -> m.record.part())
        .thenComparingLong(m -> m.record.offset()));
    List<Callable<Void>> writes = new ArrayList<>(batch.size());
    for (Member member : batch) {
      writes.add(() -> {
        String name = member.entry.name();
        try (InputStream in = reader.open(name)) {
          destination.write(name, targets.of(name), in, member.entry.mtimeMillis(),
              accesses.recorded(member.record.access()));
        }
        progress.merged(member.entry.length());
        return null;
      });
    }
    runAll(writes);
  }

  /**
   * The records of the queued members, looked up together (records close in a bucket are read
   * in one run); they stay in the reader's record cache for the gets that follow.
   */
  private List<Member> lookUp() throws IOException {
    List<String> names = new ArrayList<>(entries.size());
    for (NameEntry entry : entries) {
      names.add(entry.name());
    }
    List<IndexRecord> records = reader.recordsOfHashes(names);
    List<Member> members = new ArrayList<>(entries.size());
    for (int i = 0; i < entries.size(); i++) {
      if (records.get(i) == null) {
        throw new FileNotInArchiveException(reader.location(), names.get(i));
      }
      members.add(new Member(entries.get(i), records.get(i)));
    }
    return members;
  }

  /**
   * Runs the tasks in order on the pool and waits for every one: after the first failure the
   * tasks not started yet do nothing, and those running finish (a file is whole or removed)
   * before the failure is thrown.
   */
  private void runAll(List<Callable<Void>> tasks) throws IOException {
    AtomicBoolean failed = new AtomicBoolean();
    List<Future<Void>> futures = new ArrayList<>(tasks.size());
    for (Callable<Void> task : tasks) {
      futures.add(pool.submit(() -> {
        if (failed.get()) {
          return null;
        }
        try {
          return task.call();
        } catch (Exception | Error e) {
          failed.set(true);
          throw e;
        }
      }));
    }
    Throwable failure = null;
    boolean interrupted = false;
    for (Future<Void> future : futures) {
      while (true) {
        try {
          future.get();
          break;
        } catch (ExecutionException e) {
          failure = failure == null ? e.getCause() : failure;
          break;
        } catch (InterruptedException e) {
          // Stop what has not started, and still wait for what runs.
          interrupted = true;
          failed.set(true);
          if (failure == null) {
            failure = new InterruptedIOException("extract was interrupted");
          }
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (failure != null) {
      Throwables.throwIfInstanceOf(failure, IOException.class);
      Throwables.throwIfUnchecked(failure);
      throw new IOException(failure);
    }
  }

  @Override
  public void close() {
    pool.shutdown(); // every task has ended: runAll waits for them
  }
}
