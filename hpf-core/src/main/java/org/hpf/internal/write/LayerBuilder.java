package org.hpf.internal.write;

import com.google.common.collect.PeekingIterator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.index.BucketOrder;
import org.hpf.internal.index.BucketSplitter;
import org.hpf.internal.index.IndexFileWriter;
import org.hpf.internal.io.ArchiveStorage;

/**
 * Builds one index layer of a generation from records streamed in {@link BucketOrder}: cuts
 * them into buckets, writes each bucket's index file on the writer's pool (at most one bucket
 * per thread in flight, so memory stays at a few buckets), and assembles the directory from the
 * buckets, which it also takes unchanged from a stored layer.
 */
final class LayerBuilder {
  /** A bucket of the new layer: its place in the directory and its index file, to come. */
  private record Leaf(int prefix, int depth, Future<BucketRef> ref) {}

  private final ArchiveStorage storage;
  private final ArchiveId id;
  private final long generation;
  private final int capacity;
  private final long blockSize;
  private final boolean fingerprints;
  private final ExecutorService pool;
  private final Semaphore inFlight;
  private final List<Leaf> leaves = new ArrayList<>();
  private int nextBucketId;
  private int bucketsWritten;
  private long indexBytesWritten;
  private long records;

  LayerBuilder(ArchiveStorage storage, ArchiveId id, long generation, int capacity,
      long blockSize, boolean fingerprints, ExecutorService pool, int threads) {
    this.storage = storage;
    this.id = id;
    this.generation = generation;
    this.capacity = capacity;
    this.blockSize = blockSize;
    this.fingerprints = fingerprints;
    this.pool = pool;
    this.inFlight = new Semaphore(Math.max(1, threads));
  }

  /** Builds the buckets of the subtree (prefix, depth) from the head of {@code records}. */
  void build(int prefix, int depth, PeekingIterator<IndexRecord> records) throws IOException {
    new BucketSplitter(capacity, records, this::write).build(prefix, depth);
  }

  /** Keeps a stored bucket as it is. */
  void keep(int prefix, BucketRef ref) {
    leaves.add(new Leaf(prefix, ref.localDepth(), CompletableFuture.completedFuture(ref)));
    records += ref.recordCount();
  }

  private void write(int prefix, int depth, List<IndexRecord> bucket) throws IOException {
    records += bucket.size();
    if (bucket.isEmpty()) {
      // An empty bucket has no index file: readers never look into it.
      keep(prefix, new BucketRef(depth, 0, 0, 0, 0, 0));
      return;
    }
    int bucketId = nextBucketId++;
    try {
      inFlight.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while indexing");
    }
    try {
      leaves.add(new Leaf(prefix, depth, pool.submit(() -> {
        try {
          return IndexFileWriter.write(storage, id, generation, bucketId, depth, prefix, bucket,
              blockSize, fingerprints);
        } finally {
          inFlight.release();
        }
      })));
    } catch (RuntimeException e) {
      inFlight.release();
      throw e;
    }
  }

  /** Records in the layer (tombstones included). */
  long records() {
    return records;
  }

  int bucketsWritten() {
    return bucketsWritten;
  }

  long indexBytesWritten() {
    return indexBytesWritten;
  }

  /**
   * Waits for every index file and returns the layer's directory. If one failed, waits for the
   * others too before throwing, so that none is written after the caller cleans up.
   */
  DirectoryFile finish() throws IOException {
    try {
      return assemble();
    } catch (IOException | RuntimeException | Error e) {
      abandon();
      throw e;
    }
  }

  private DirectoryFile assemble() throws IOException {
    int globalDepth = 0;
    for (Leaf leaf : leaves) {
      globalDepth = Math.max(globalDepth, leaf.depth);
    }
    List<BucketRef> buckets = new ArrayList<>(leaves.size());
    int[] slots = new int[1 << globalDepth];
    for (int b = 0; b < leaves.size(); b++) {
      Leaf leaf = leaves.get(b);
      BucketRef ref = GenerationCommit.get(leaf.ref);
      if (ref.indexGeneration() == generation && ref.recordCount() > 0) {
        bucketsWritten++;
        indexBytesWritten += ref.indexFileLength();
      }
      buckets.add(ref);
      for (int s = leaf.prefix; s < slots.length; s += 1 << leaf.depth) {
        slots[s] = b;
      }
    }
    return new DirectoryFile(globalDepth, buckets, slots);
  }

  /** Waits for index files in flight after a failure, so none is written after cleanup. */
  void abandon() {
    for (Leaf leaf : leaves) {
      try {
        leaf.ref.get();
      } catch (Exception e) {
        // the failure that matters is already being reported
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
