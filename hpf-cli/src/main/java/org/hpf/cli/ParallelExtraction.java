package org.hpf.cli;

import com.google.common.base.Throwables;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.fs.Path;
import org.hpf.BatchRead;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.read.BatchEntry;
import org.hpf.internal.read.BatchReader;
import org.hpf.internal.read.EntryStatus;
import org.hpf.internal.read.HpfReader;

/**
 * Writes members to their files with several threads. Members are taken in batches and each
 * batch is read as one ({@link BatchReader#readListed}: located by the listing, close entries
 * read with one read, in part order), each member checked whole before a thread writes it to
 * its file. The members read and not yet written stay within {@link #WINDOW_BYTES}. The first failure stops
 * the work: members not started are not written, and it is thrown.
 */
final class ParallelExtraction implements AutoCloseable {
  /** Members per batch. */
  static final int BATCH = 4096;
  /** A record cache that holds two batches' records (184 bytes each). */
  static final long RECORD_CACHE_BYTES = 4L << 20;
  /** Checked members waiting for a thread to write them, at most (one larger waits alone). */
  static final long WINDOW_BYTES = 64L << 20;

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
  private final BatchReader.Settings reads;
  private final ExecutorService pool;
  private final List<NameEntry> entries = new ArrayList<>(BATCH);
  /** Bytes of members handed to the pool and not yet written. */
  private long waiting;

  ParallelExtraction(HpfReader reader, RecordedAccess accesses, Targets targets,
      ExtractDestination destination, Progress progress, BatchRead reads, int threads) {
    this.reader = reader;
    this.accesses = accesses;
    this.targets = targets;
    this.destination = destination;
    this.progress = progress;
    this.reads = BatchReader.Settings.of(reads);
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
    Map<String, NameEntry> byName = new HashMap<>();
    List<NameEntry> listed = new ArrayList<>(entries);
    for (NameEntry entry : listed) {
      byName.put(entry.name(), entry);
    }
    entries.clear();
    AtomicBoolean failed = new AtomicBoolean();
    List<Future<Void>> writes = new ArrayList<>(listed.size());
    Throwable failure = null;
    try {
      // The listing says where each member lies: no index lookup per member.
      BatchReader.readListed(reader, listed.iterator(), reads, member -> {
        EntryStatus status = member.status(); // throws what reading it met
        NameEntry entry = byName.get(member.name());
        long bytes = member.inMemory() ? status.length() : 0;
        awaitRoom(bytes, failed);
        writes.add(pool.submit(() -> write(member, entry, status, bytes, failed)));
      });
    } catch (IOException | RuntimeException e) {
      failure = e;
      failed.set(true);
    }
    failure = awaitAll(writes, failed, failure);
    if (failure != null) {
      Throwables.throwIfInstanceOf(failure, IOException.class);
      Throwables.throwIfUnchecked(failure);
      throw new IOException(failure);
    }
  }

  /** Writes one checked member to its file, unless an earlier write failed. */
  private Void write(BatchEntry member, NameEntry entry, EntryStatus status, long bytes,
      AtomicBoolean failed) throws IOException {
    try {
      if (failed.get()) {
        return null;
      }
      String name = member.name();
      try (InputStream in = member.open()) {
        destination.write(name, targets.of(name), in, entry.mtimeMillis(),
            accesses.recorded(status.access()));
      }
      progress.merged(entry.length());
      return null;
    } catch (IOException | RuntimeException | Error e) {
      failed.set(true);
      throw e;
    } finally {
      synchronized (this) {
        waiting -= bytes;
        notifyAll();
      }
    }
  }

  /** Waits until the members waiting to be written leave room for {@code bytes} more. */
  private synchronized void awaitRoom(long bytes, AtomicBoolean failed) throws IOException {
    try {
      while (waiting > 0 && waiting + bytes > WINDOW_BYTES && !failed.get()) {
        wait();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("extract was interrupted");
    }
    if (failed.get()) {
      throw new IOException("a write failed"); // stops the batch; awaitAll has the cause
    }
    waiting += bytes;
  }

  /**
   * Waits for every write handed to the pool: those running finish (a file is whole or
   * removed). Returns the first failure: a write's, else {@code failure}.
   */
  private static Throwable awaitAll(List<Future<Void>> writes, AtomicBoolean failed,
      Throwable failure) {
    Throwable first = null;
    boolean interrupted = false;
    for (Future<Void> future : writes) {
      while (true) {
        try {
          future.get();
          break;
        } catch (ExecutionException e) {
          first = first == null ? e.getCause() : first;
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
      return failure;
    }
    return first != null ? first : failure;
  }

  @Override
  public void close() {
    pool.shutdown(); // every task has ended: runAll waits for them
  }
}
