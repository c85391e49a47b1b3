package org.hpf.write;

import java.io.IOException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.ArchiveExistsException;
import org.hpf.format.ArchiveId;
import org.hpf.format.ArchiveLayout;
import org.hpf.format.DirectoryFile;
import org.hpf.format.IndexRecord;
import org.hpf.format.JournalWriter;
import org.hpf.format.Manifest;
import org.hpf.format.Manifest.PartInfo;
import org.hpf.format.NameHasher;
import org.hpf.format.NamesFileWriter;
import org.hpf.io.ArchiveOutput;
import org.hpf.io.ArchiveStorage;
import org.hpf.io.HadoopStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates an archive: collect sources, merge them into parts (journaled), build buckets and
 * their index files, write names and directory, then commit by publishing the manifest. A
 * failure before the commit removes the half-built archive; a crash leaves the journal.
 */
public final class ArchiveCreator {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveCreator.class);
  static final long FIRST_GENERATION = 1;

  private ArchiveCreator() {}

  public static CreateResult create(Configuration conf, Path archive, List<Path> sourceRoots,
      WriterOptions options) throws IOException {
    long start = System.nanoTime();
    List<Source> sources = SourceCollector.collect(conf, sourceRoots);
    FileSystem fs = archive.getFileSystem(conf);
    HadoopStorage storage = new HadoopStorage(fs, archive, options.replication());
    if (storage.rootExistsNonEmpty()) {
      throw new ArchiveExistsException(storage.location());
    }
    long blockSize = options.blockSize() > 0 ? options.blockSize()
        : storage.fileSystem().getDefaultBlockSize(storage.root());
    int capacity = IndexPhase.capacity(options, blockSize);
    storage.mkdirs(Manifest.DIR);
    boolean committed = false;
    WriterLock lock = null;
    ExecutorService pool = Executors.newFixedThreadPool(options.threads(), threadFactory());
    try {
      lock = WriterLock.acquire(storage, "create");
      CreateResult result = write(storage, sources, options, blockSize, capacity, pool, start);
      committed = true;
      return result;
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

  private static void awaitTermination(ExecutorService pool, HadoopStorage storage) {
    try {
      if (!pool.awaitTermination(5, TimeUnit.MINUTES)) {
        LOG.warn("writer threads of the failed create of {} did not stop in 5 minutes",
            storage.location());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static CreateResult write(ArchiveStorage storage, List<Source> sources,
      WriterOptions options, long blockSize, int capacity, ExecutorService pool, long start)
      throws IOException {
    ArchiveId id = options.archiveId() != null ? options.archiveId() : ArchiveId.random();
    long generation = FIRST_GENERATION;
    long totalBytes = sources.stream().mapToLong(Source::length).sum();
    options.progress().started(sources.size(), totalBytes);
    options.progress().phase("merging");

    String journalName = ArchiveLayout.journal(generation);
    IndexRecord[] records;
    List<PartInfo> parts;
    try (JournalWriter journal = new JournalWriter(storage.create(journalName, 0), id)) {
      MergePhase merge = new MergePhase(storage, id, options, blockSize, journal, sources, 0);
      records = merge.run(pool);
      parts = merge.parts();
    }
    long merged = System.nanoTime();

    options.progress().phase("indexing");
    DirectoryFile directory = IndexPhase.run(storage, id, generation, records, sources, capacity,
        blockSize, pool);
    long indexed = System.nanoTime();

    options.progress().phase("committing");
    String namesFile = ArchiveLayout.names(generation);
    try (NamesFileWriter names = new NamesFileWriter(storage.create(namesFile, 0), id)) {
      for (Source source : sources) {
        names.add(source.name());
      }
      names.finish();
    }
    String directoryFile = ArchiveLayout.directory(generation);
    writeSmallFile(storage, directoryFile, directory.toBytes(id));

    long storedBytes = 0;
    for (IndexRecord record : records) {
      storedBytes += record.entryLength();
    }
    Manifest manifest = new Manifest(id, generation, System.currentTimeMillis(),
        NameHasher.MURMUR3_128_ID, sources.size(), totalBytes, storedBytes, capacity, blockSize,
        options.partSize(), directoryFile, namesFile, parts);
    publish(storage, manifest);
    try {
      storage.delete(journalName);
    } catch (IOException e) {
      // Committed already: a leftover journal of a committed generation is ignored by recovery.
      LOG.warn("generation {} committed but its journal could not be deleted: {}", generation,
          e.toString());
    }
    long end = System.nanoTime();

    long indexBytes = 0;
    long functionBytes = 0;
    for (DirectoryFile.BucketRef bucket : directory.buckets()) {
      indexBytes += bucket.indexFileLength();
      functionBytes += bucket.functionLength();
    }
    LOG.info("created {}: {} files, {} buckets, {} parts", storage.location(), sources.size(),
        directory.buckets().size(), parts.size());
    return new CreateResult(((HadoopStorage) storage).root(), generation, sources.size(),
        totalBytes, storedBytes, parts.size(), directory.buckets().size(),
        directory.globalDepth(), indexBytes, functionBytes, (merged - start) / 1_000_000,
        (indexed - merged) / 1_000_000, (end - start) / 1_000_000);
  }

  /** Publishes a generation: write the manifest under a temporary name, then rename it. */
  static void publish(ArchiveStorage storage, Manifest manifest) throws IOException {
    String temporary = ArchiveLayout.temporaryManifest(manifest.generation(),
        UUID.randomUUID().toString());
    writeSmallFile(storage, temporary, manifest.toBytes());
    storage.rename(temporary, Manifest.fileName(manifest.generation()));
  }

  static void writeSmallFile(ArchiveStorage storage, String name, byte[] bytes)
      throws IOException {
    try (ArchiveOutput out = storage.create(name, 0)) {
      out.stream().write(bytes);
      out.sync();
    }
  }

  private static java.util.concurrent.ThreadFactory threadFactory() {
    AtomicInteger counter = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, "hpf-writer-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
