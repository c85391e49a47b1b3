package org.hpf.write;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.ArchiveExistsException;
import org.hpf.LimitExceededException;
import org.hpf.format.ArchiveId;
import org.hpf.format.DirectoryFile;
import org.hpf.format.JournalHeader;
import org.hpf.format.Manifest;
import org.hpf.hdfs.HdfsIntegration;
import org.hpf.index.IndexFileWriter;
import org.hpf.io.ArchiveStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates an archive: collect sources, merge them into parts (journaled), build buckets and
 * their index files, write names and directory, then commit by publishing the manifest. A
 * failure before the commit removes the half-built archive; a crash leaves the journal, from
 * which {@link ArchiveWriter#recover} completes the create.
 */
public final class ArchiveCreator {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveCreator.class);

  private ArchiveCreator() {}

  public static CreateResult create(Configuration conf, Path archive, List<Path> sourceRoots,
      WriterOptions options) throws IOException {
    long start = System.nanoTime();
    List<Source> sources = SourceCollector.collect(conf, sourceRoots);
    FileSystem fs = archive.getFileSystem(conf);
    return create(HdfsIntegration.storage(fs, archive, options.replication(),
        options.partSize(), options.hdfs()), sources, options, start);
  }

  /** Creates an archive in {@code storage} (the seam tests use to inject faults). */
  public static CreateResult create(ArchiveStorage storage, List<Source> sources,
      WriterOptions options) throws IOException {
    return create(storage, sources, options, System.nanoTime());
  }

  private static CreateResult create(ArchiveStorage storage, List<Source> sources,
      WriterOptions options, long start) throws IOException {
    if (storage.rootExistsNonEmpty()) {
      throw new ArchiveExistsException(storage.location());
    }
    long blockSize = options.blockSize() > 0 ? options.blockSize() : storage.defaultBlockSize();
    int capacity = capacity(options, blockSize);
    storage.mkdirs(Manifest.DIR);
    boolean committed = false;
    WriterLock lock = null;
    ExecutorService pool = WriterThreads.pool(options.threads());
    try {
      lock = WriterLock.acquire(storage, "create");
      ArchiveId id = options.archiveId() != null ? options.archiveId() : ArchiveId.random();
      GenerationCommit commit = new GenerationCommit(storage, id, null, capacity,
          blockSize, options.partSize(), options.hasher());
      Addition.Outcome outcome = Addition.run(storage, id, commit, sources, Map.of(), options,
          blockSize, 0, new JournalHeader(JournalHeader.CREATE, false, 0, capacity, blockSize,
              options.partSize()), pool);
      committed = true;
      Manifest manifest = outcome.commit().manifest();
      DirectoryFile directory = outcome.commit().directory();
      long indexBytes = 0;
      long functionBytes = 0;
      for (DirectoryFile.BucketRef bucket : directory.buckets()) {
        indexBytes += bucket.indexFileLength();
        functionBytes += bucket.functionLength();
      }
      LOG.info("created {}: {} files, {} buckets, {} parts", storage.location(),
          manifest.fileCount(), directory.buckets().size(), manifest.parts().size());
      return new CreateResult(storage.location(), manifest.generation(), manifest.fileCount(),
          manifest.originalBytes(), manifest.storedBytes(), manifest.parts().size(),
          directory.buckets().size(), directory.globalDepth(), indexBytes, functionBytes,
          outcome.mergeNanos() / 1_000_000, outcome.indexNanos() / 1_000_000,
          (System.nanoTime() - start) / 1_000_000,
          HdfsIntegration.afterCommit(storage, manifest)); // HDFS: part placement, cache pins
    } finally {
      pool.shutdownNow();
      if (!committed) {
        // A failed task does not stop the others at once: one still running could write its
        // file after the directory was removed and leave (or re-create) a half-built archive.
        awaitTermination(pool, storage);
      }
      if (lock != null) {
        lock.release();
      }
      if (!committed && lock != null) {
        // Nothing was committed and nobody else can have used this directory: remove it.
        try {
          storage.deleteRoot();
        } catch (IOException e) {
          LOG.warn("could not remove the failed archive {}: {}", storage.location(), e.toString());
        }
      }
    }
  }

  private static void awaitTermination(ExecutorService pool, ArchiveStorage storage) {
    try {
      if (!pool.awaitTermination(5, TimeUnit.MINUTES)) {
        LOG.warn("writer threads of the failed create of {} did not stop in 5 minutes",
            storage.location());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

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
}
