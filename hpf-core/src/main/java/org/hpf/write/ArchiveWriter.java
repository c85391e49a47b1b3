package org.hpf.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.hpf.FileNotInArchiveException;
import org.hpf.HashCollisionException;
import org.hpf.NameExistsException;
import org.hpf.format.ArchiveLayout;
import org.hpf.format.IndexRecord;
import org.hpf.format.JournalHeader;
import org.hpf.format.Manifest;
import org.hpf.format.Manifest.PartInfo;
import org.hpf.hdfs.HdfsIntegration;
import org.hpf.io.ArchiveStorage;
import org.hpf.read.HpfReader;
import org.hpf.read.ReaderOptions;

/**
 * Changes an existing archive: append, delete, compact. Opening takes the archive's exclusive
 * lock and recovers whatever a writer that died left behind; every operation then commits one
 * new generation atomically and removes the files no kept generation needs. Readers opened
 * before a commit keep reading their generation (see {@link WriterOptions#retainGenerations()}).
 *
 * <p>Not thread-safe: one thread drives a writer. Close it to release the lock.
 */
public final class ArchiveWriter implements AutoCloseable {
  private final Configuration conf;
  private final ArchiveStorage storage;
  private final WriterOptions options;
  private final WriterLock lock;
  private final ExecutorService pool;
  private final Recovery.Report recovery;
  private Manifest manifest;
  private HpfReader reader;

  private ArchiveWriter(Configuration conf, ArchiveStorage storage, WriterOptions options,
      WriterLock lock, ExecutorService pool, Recovery.Report recovery) throws IOException {
    this.conf = conf;
    this.storage = storage;
    this.options = options;
    this.lock = lock;
    this.pool = pool;
    this.recovery = recovery;
    refresh();
  }

  /** Opens the archive for changes: lock, then recover if a writer died. */
  public static ArchiveWriter open(Configuration conf, Path archive, WriterOptions options)
      throws IOException {
    return open(conf, HdfsIntegration.storage(archive.getFileSystem(conf), archive,
        options.replication(), options.partSize(), options.hdfs()), options);
  }

  /**
   * Opens the archive in {@code storage} for changes (the seam tests use to inject faults);
   * {@code conf} resolves source paths.
   */
  public static ArchiveWriter open(Configuration conf, ArchiveStorage storage,
      WriterOptions options) throws IOException {
    if (!storage.rootExists()) {
      throw new FileNotFoundException("no archive at " + storage.location());
    }
    if (options.breakLock()) {
      WriterLock.breakStale(storage);
    }
    WriterLock lock = WriterLock.acquire(storage, "writer");
    ExecutorService pool = WriterThreads.pool(options.threads());
    try {
      Recovery.Report report = Recovery.run(storage, options, pool);
      return new ArchiveWriter(conf, storage, options, lock, pool, report);
    } catch (IOException | RuntimeException | Error e) {
      pool.shutdownNow();
      lock.release();
      throw e;
    }
  }

  /** Recovers an archive whose writer died, and releases it. */
  public static Recovery.Report recover(Configuration conf, Path archive, WriterOptions options)
      throws IOException {
    try (ArchiveWriter writer = open(conf, archive, options)) {
      return writer.recovery;
    }
  }

  /** What recovery did when this writer opened the archive. */
  public Recovery.Report recovery() {
    return recovery;
  }

  /** The generation this writer last committed (or found). */
  public Manifest manifest() {
    return manifest;
  }

  /**
   * Adds the files below {@code sourceRoots}. Names the archive already has fail the append
   * ({@link NameExistsException}) unless {@code replace}, in which case the new bytes win.
   */
  public ChangeResult append(List<Path> sourceRoots, boolean replace) throws IOException {
    return appendSources(SourceCollector.collect(conf, sourceRoots), replace);
  }

  /** As {@link #append}, for sources already collected (sorted, unique names). */
  public ChangeResult appendSources(List<Source> sources, boolean replace) throws IOException {
    long start = System.nanoTime();
    Map<String, IndexRecord> replaced = new HashMap<>();
    List<String> clashes = new ArrayList<>();
    for (Source source : sources) {
      IndexRecord existing = reader.record(source.name());
      if (existing != null && !reader.entryName(existing).equals(source.name())) {
        // Replacing it would silently drop the other member; the create refuses this too.
        throw new HashCollisionException("'" + source.name() + "' has the same 128-bit hash as "
            + "the member '" + reader.entryName(existing) + "'");
      }
      if (existing != null) {
        String member = reader.entryName(existing);
        if (!member.equals(source.name())) {
          // Replacing it would silently drop the other member; the create refuses this too.
          throw new HashCollisionException("'" + source.name() + "' has the same 128-bit hash "
              + "as the member '" + member + "'");
        }
        replaced.put(source.name(), existing);
        if (clashes.size() < 5) {
          clashes.add(source.name());
        }
      }
    }
    if (!replace && !replaced.isEmpty()) {
      throw new NameExistsException(storage.location(), clashes, replaced.size());
    }
    GenerationCommit commit = newCommit();
    JournalHeader header = new JournalHeader(JournalHeader.APPEND, replace,
        manifest.generation(), manifest.bucketCapacity(), manifest.blockSize(),
        manifest.partSize());
    Addition.Outcome outcome;
    try {
      outcome = Addition.run(storage, manifest.archiveId(), commit, sources, replaced, options,
          manifest.blockSize(), nextPartId(storage, manifest), header, pool);
    } catch (HashCollisionException e) {
      // Found while indexing, before the commit point: recovery would roll the journal forward
      // into the same collision on every open, so the append is dropped here instead (it was
      // never acknowledged); its parts are leftovers that no generation names.
      storage.delete(ArchiveLayout.journal(commit.generation()));
      GarbageCollector.collect(storage, options.retainGenerations(), Set.of());
      throw e;
    }
    long bytes = outcome.parts().stream().mapToLong(PartInfo::length).sum();
    return finish(outcome.commit(), sources.size() - replaced.size(), replaced.size(), 0, bytes,
        outcome.parts().size(), 0, start);
  }

  /** Removes members; all or nothing: a name the archive lacks fails the whole delete. */
  public ChangeResult delete(Collection<String> names) throws IOException {
    long start = System.nanoTime();
    Set<String> unique = new LinkedHashSet<>(names);
    GenerationCommit commit = newCommit();
    for (String name : unique) {
      IndexRecord existing = reader.record(name);
      if (existing == null || !reader.entryName(existing).equals(name)) {
        throw new FileNotInArchiveException(storage.location(), name);
      }
      commit.delete(name, existing);
    }
    return finish(commit.commit(pool), 0, 0, unique.size(), 0, 0, 0, start);
  }

  /**
   * Rewrites the parts whose live fraction is below {@code minLiveFraction} (0..1) into new
   * parts, drops them, and merges the names segments into one.
   */
  public ChangeResult compact(double minLiveFraction) throws IOException {
    if (!(minLiveFraction >= 0 && minLiveFraction <= 1)) {
      throw new IllegalArgumentException("live fraction must be in [0, 1]: " + minLiveFraction);
    }
    long start = System.nanoTime();
    GenerationCommit commit = newCommit();
    Compactor.Outcome outcome = Compactor.run(storage, manifest, reader, commit,
        minLiveFraction, nextPartId(storage, manifest), options.partSize(), options.progress());
    return finish(commit.commit(pool), 0, 0, 0, outcome.bytesWritten(), outcome.partsWritten(),
        outcome.partsRemoved(), start);
  }

  private GenerationCommit newCommit() throws IOException {
    return new GenerationCommit(storage, manifest.archiveId(), manifest,
        manifest.bucketCapacity(), manifest.blockSize(), manifest.partSize(), options.hasher());
  }

  private ChangeResult finish(GenerationCommit.Result result, long added, long replacedCount,
      long deleted, long bytes, int partsWritten, int partsRemoved, long start)
      throws IOException {
    refresh();
    GarbageCollector.collect(storage, options.retainGenerations(), Set.of());
    return new ChangeResult(result.manifest().generation(), added, replacedCount, deleted, bytes,
        partsWritten, partsRemoved, result.bucketsWritten(), result.indexBytesWritten(),
        result.manifest().fileCount(),
        (System.nanoTime() - start) / 1_000_000,
        HdfsIntegration.afterCommit(storage, result.manifest())); // after GC: unpins its files
  }

  private void refresh() throws IOException {
    if (reader != null) {
      reader.close();
    }
    reader = HpfReader.open(storage, new ReaderOptions(options.hasher()));
    manifest = reader.manifest();
  }

  /** One more than the largest part id in the manifest or among the files (a dead writer's). */
  static int nextPartId(ArchiveStorage storage, Manifest manifest) throws IOException {
    int next = 0;
    if (manifest != null) {
      for (PartInfo part : manifest.parts()) {
        next = Math.max(next, part.id() + 1);
      }
    }
    for (String name : storage.list("")) {
      if (name.startsWith("part-")) {
        try {
          next = Math.max(next, Integer.parseInt(name.substring(5)) + 1);
        } catch (NumberFormatException e) {
          // not a part of ours
        }
      }
    }
    return next;
  }

  @Override
  public void close() throws IOException {
    try {
      if (reader != null) {
        reader.close();
      }
    } finally {
      pool.shutdownNow();
      lock.release();
    }
  }
}
