package org.hpf.write;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.hpf.LimitExceededException;
import org.hpf.format.ArchiveId;
import org.hpf.format.DirectoryFile;
import org.hpf.format.DirectoryFile.BucketRef;
import org.hpf.format.IndexRecord;
import org.hpf.index.ExtendibleHashing;
import org.hpf.index.IndexFileWriter;
import org.hpf.io.ArchiveStorage;

/** Distributes records over buckets and writes one index file per bucket, in parallel. */
final class IndexPhase {
  private IndexPhase() {}

  /** The bucket capacity to use: the option, or what fits one block; checked against the block. */
  static int capacity(WriterOptions options, long blockSize) throws LimitExceededException {
    int fits = IndexFileWriter.capacityFor(blockSize);
    if (options.bucketCapacity() == 0) {
      return fits;
    }
    if (options.bucketCapacity() > fits) {
      throw new LimitExceededException("bucket capacity " + options.bucketCapacity()
          + " does not fit an index file in one block of " + blockSize + " bytes (at most "
          + fits + ")");
    }
    return options.bucketCapacity();
  }

  static DirectoryFile run(ArchiveStorage storage, ArchiveId id, long generation,
      IndexRecord[] records, List<Source> sources, int capacity, long blockSize,
      ExecutorService pool) throws IOException {
    ExtendibleHashing hashing = new ExtendibleHashing(capacity, r -> records[r].hash().low());
    for (int i = 0; i < records.length; i++) {
      hashing.insert(i);
    }
    List<ExtendibleHashing.Bucket> buckets = hashing.buckets();
    List<Future<BucketRef>> futures = new ArrayList<>(buckets.size());
    for (int b = 0; b < buckets.size(); b++) {
      ExtendibleHashing.Bucket bucket = buckets.get(b);
      int bucketId = b;
      futures.add(pool.submit(() -> {
        int[] members = bucket.members().toIntArray();
        List<IndexRecord> bucketRecords = new ArrayList<>(members.length);
        for (int member : members) {
          bucketRecords.add(records[member]);
        }
        return IndexFileWriter.write(storage, id, generation, bucketId, bucket.localDepth(),
            bucket.prefix(), bucketRecords, blockSize, i -> sources.get(members[i]).name());
      }));
    }
    List<BucketRef> refs = new ArrayList<>(buckets.size());
    for (Future<BucketRef> future : futures) {
      refs.add(get(future));
    }
    return new DirectoryFile(hashing.globalDepth(), refs, hashing.slots());
  }

  private static <T> T get(Future<T> future) throws IOException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("index build interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IOException(e.getCause());
    }
  }
}
