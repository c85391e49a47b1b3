package org.hpf.internal.hdfs;

import org.hpf.WriteSettings;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.CacheFlag;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveEntry;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveStats;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.read.HpfReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pins the files a lookup reads, the index files (with the directories and the manifest, read at
 * open), in the DataNodes' memory with HDFS centralized cache directives, one directive per file
 * in one cache pool. The paper's aim (section 4.2.2): no disk I/O for metadata, so a get costs
 * one disk read, the member's. Part files are never pinned.
 *
 * <p>After every commit the writer calls {@link #sync}: directives for the new generation's files
 * that lack one are added, directives of this archive for any other file (older generations,
 * files the garbage collector deleted) are removed. Everything here is best-effort: a commit has
 * already happened, so a failure is a warning in the report, never an error.
 */
public final class CachePinning {
  private static final Logger LOG = LoggerFactory.getLogger(CachePinning.class);

  private CachePinning() {}

  /**
   * Re-pins the newest generation of the archive at {@code archive} (for example after it was
   * moved, or after a pool was created); a no-op report if the file system is not HDFS.
   */
  public static HdfsReport.Pinning pin(FileSystem fs, Path archive, WriteSettings options)
      throws IOException {
    return pin(fs, archive, options, new ArrayList<>());
  }

  /** As {@link #pin(FileSystem, Path, WriteSettings)}, adding what went wrong to warnings. */
  public static HdfsReport.Pinning pin(FileSystem fs, Path archive, WriteSettings options,
      List<String> warnings) throws IOException {
    DistributedFileSystem dfs = requireHdfs(fs, archive);
    HdfsStorage storage = new HdfsStorage(dfs, archive, (short) 0, 0, options);
    Manifest manifest = Manifest.read(storage, HpfReader.newestGeneration(storage));
    return sync(storage, manifest, options, warnings);
  }

  /**
   * Pins an archive that was written without pinning, {@code written} its writer's report:
   * after an owner's archive was given to them, so that its directives go to the pool of its
   * new owner, never to the writer's. The report with that pinning; never throws, as after a
   * commit (a failure is a warning).
   */
  public static HdfsReport pinWritten(FileSystem fs, Path archive, WriteSettings options,
      HdfsReport written) {
    if (!options.pinIndex() || written == null || written.skipped()) {
      return written;
    }
    List<String> warnings = new ArrayList<>();
    HdfsReport.Pinning pinning;
    try {
      pinning = pin(fs, archive, options, warnings);
    } catch (IOException | RuntimeException e) {
      LOG.debug("cache pinning of {} failed", archive, e);
      pinning = skip(options.cachePool(), "cache pinning failed: "
          + LazyPersistProbe.firstLine(e), warnings);
    }
    return written.withPinning(pinning, warnings);
  }

  /**
   * The name of the pool {@code setting} names for the archive at {@code archive}: with
   * {@link WriteSettings#OWNER} in it, the archive owner's.
   */
  public static String poolOf(FileSystem fs, Path archive, String setting) throws IOException {
    DistributedFileSystem dfs = requireHdfs(fs, archive);
    return CachePools.of(dfs, dfs.makeQualified(archive), setting).name();
  }

  /** Removes every directive of this archive from {@code pool}; returns how many. */
  public static int unpin(FileSystem fs, Path archive, String pool) throws IOException {
    DistributedFileSystem dfs = requireHdfs(fs, archive);
    int removed = 0;
    for (CacheDirectiveEntry entry : directivesOf(dfs, dfs.makeQualified(archive),
        poolOf(fs, archive, pool))) {
      dfs.removeCacheDirective(entry.getInfo().getId());
      removed++;
    }
    return removed;
  }

  /**
   * What the DataNodes have cached of the archive's newest generation: bytes needed (length of
   * each pinned file times its cache replication) against bytes cached, as the NameNode last
   * heard from the DataNodes' cache reports. Two or three NameNode RPCs plus one per index layer.
   */
  public static CacheStatus status(FileSystem fs, Path archive, String setting)
      throws IOException {
    DistributedFileSystem dfs = requireHdfs(fs, archive);
    HdfsStorage storage = new HdfsStorage(dfs, archive, (short) 0, 0, WriteSettings.defaults());
    String pool = CachePools.of(dfs, storage.root(), setting).name();
    long generation = HpfReader.newestGeneration(storage);
    Map<String, Long> wanted = wantedFiles(storage, Manifest.read(storage, generation));
    long bytesNeeded = 0;
    long bytesCached = 0;
    long filesNeeded = 0;
    long filesCached = 0;
    int directives = 0;
    int stale = 0;
    List<String> unpinned = new ArrayList<>();
    Map<String, Boolean> seen = new LinkedHashMap<>();
    for (CacheDirectiveEntry entry : directivesOf(dfs, storage.root(), pool)) {
      String path = entry.getInfo().getPath().toUri().getPath();
      if (!wanted.containsKey(path)) {
        stale++;
        continue;
      }
      directives++;
      seen.put(path, true);
      CacheDirectiveStats stats = entry.getStats();
      bytesNeeded += stats.getBytesNeeded();
      bytesCached += stats.getBytesCached();
      filesNeeded += stats.getFilesNeeded();
      filesCached += stats.getFilesCached();
    }
    for (String path : wanted.keySet()) {
      if (!seen.containsKey(path)) {
        unpinned.add(path);
      }
    }
    return new CacheStatus(storage.location(), pool, generation, wanted.size(), directives, stale,
        filesNeeded, filesCached, bytesNeeded, bytesCached, unpinned);
  }

  /**
   * The {@link #status} once every pinned file is cached, or when {@code timeout} has passed
   * (the NameNode's figures change with each rescan of the directives and each cache report,
   * seconds apart on a default cluster).
   */
  public static CacheStatus awaitCached(FileSystem fs, Path archive, String pool,
      Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    CacheStatus status = status(fs, archive, pool);
    while (!status.fullyCached() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting for the cache");
      }
      status = status(fs, archive, pool);
    }
    return status;
  }

  /**
   * Makes the archive's directives in the options' pool match {@code manifest}'s files: removes
   * the others, adds the missing. Problems become warnings and the {@code skipped} field.
   */
  static HdfsReport.Pinning sync(HdfsStorage storage, Manifest manifest, WriteSettings options,
      List<String> warnings) {
    String pool = options.cachePool();
    DistributedFileSystem fs = storage.fileSystem();
    try {
      CachePools.Pool resolved = CachePools.of(fs, storage.root(), options.cachePool());
      pool = resolved.name();
      String problem = CachePools.ensure(fs, resolved, options.createCachePool());
      if (problem != null) {
        return skip(pool, problem, warnings);
      }
      Map<String, Long> wanted = wantedFiles(storage, manifest);
      Map<String, CacheDirectiveEntry> present = new LinkedHashMap<>();
      int removed = 0;
      for (CacheDirectiveEntry entry : directivesOf(fs, storage.root(), pool)) {
        String path = entry.getInfo().getPath().toUri().getPath();
        if (wanted.containsKey(path) && !present.containsKey(path)) {
          present.put(path, entry);
        } else {
          fs.removeCacheDirective(entry.getInfo().getId());
          removed++;
        }
      }
      int added = 0;
      int pinned = 0;
      long bytes = 0;
      for (Map.Entry<String, Long> file : wanted.entrySet()) {
        CacheDirectiveEntry existing = present.get(file.getKey());
        try {
          if (existing == null) {
            fs.addCacheDirective(directive(file.getKey(), pool, options).build(),
                EnumSet.noneOf(CacheFlag.class));
            added++;
          } else if (existing.getStats().hasExpired() && options.cacheTtl() != null) {
            fs.modifyCacheDirective(directive(file.getKey(), pool, options)
                .setId(existing.getInfo().getId()).build(), EnumSet.noneOf(CacheFlag.class));
          }
        } catch (IOException e) {
          if (isAccessDenied(e)) {
            problem = CachePools.writeRefused(resolved);
          } else {
            problem = "cache directive for " + file.getKey() + " refused: "
                + LazyPersistProbe.firstLine(e);
          }
          break;
        }
        pinned++;
        bytes += file.getValue() * options.cacheReplication();
      }
      if (problem != null) {
        warn(problem, warnings);
      }
      String memory = lockedMemoryProblem(storage.cacheCapacity(), bytes);
      if (memory != null) {
        warn(memory, warnings);
        problem = problem == null ? memory : problem + "; " + memory;
      }
      LOG.debug("pinned {} files of {} in pool {}: +{} -{} directives", pinned,
          storage.location(), pool, added, removed);
      return new HdfsReport.Pinning(pool, pinned, bytes, added, removed, problem);
    } catch (IOException | RuntimeException e) {
      // The first line: a NameNode's refusal carries its server's stack trace in its message.
      LOG.debug("cache pinning of {} failed", storage.location(), e);
      return skip(pool, "cache pinning failed: " + LazyPersistProbe.firstLine(e), warnings);
    }
  }

  private static HdfsReport.Pinning skip(String pool, String why, List<String> warnings) {
    warn(why, warnings);
    return HdfsReport.Pinning.skipped(pool, why);
  }

  /** The report's warnings are logged once, with the commit's (HdfsIntegration). */
  private static void warn(String why, List<String> warnings) {
    warnings.add(why);
  }

  private static CacheDirectiveInfo.Builder directive(String path, String pool,
      WriteSettings options) {
    CacheDirectiveInfo.Builder builder = new CacheDirectiveInfo.Builder()
        .setPath(new Path(path)).setPool(pool)
        .setReplication((short) options.cacheReplication());
    if (options.cacheTtl() != null) {
      builder.setExpiration(CacheDirectiveInfo.Expiration.newRelative(
          options.cacheTtl().toMillis()));
    }
    return builder;
  }

  /**
   * A warning when the live DataNodes have no memory for caching, or less than {@code bytes};
   * null otherwise or when the capacity is unknown (-1: the DataNode report needs the superuser).
   */
  private static String lockedMemoryProblem(long capacity, long bytes) {
    if (capacity < 0) {
      return null;
    }
    if (capacity == 0) {
      return "the DataNodes have no memory for caching (dfs.datanode.max.locked.memory is 0 on"
          + " every live DataNode): the directives stay, but nothing is cached";
    }
    if (capacity < bytes) {
      return "the DataNodes can cache " + capacity + " bytes in all, less than the " + bytes
          + " this archive needs (dfs.datanode.max.locked.memory)";
    }
    return null;
  }

  /** The pinned files of a generation by absolute path, with their lengths. */
  static Map<String, Long> wantedFiles(HdfsStorage storage, Manifest manifest)
      throws IOException {
    Map<String, Long> files = new LinkedHashMap<>();
    String manifestFile = Manifest.fileName(manifest.generation());
    files.put(absolute(storage, manifestFile), length(storage, manifestFile));
    for (Manifest.Layer layer : manifest.layers()) {
      if (layer.directoryFile() != null) { // a version 1 manifest's directory file
        files.put(absolute(storage, layer.directoryFile()),
            length(storage, layer.directoryFile()));
      }
    }
    for (DirectoryFile directory : manifest.readDirectories(storage)) {
      for (DirectoryFile.BucketRef bucket : directory.buckets()) {
        if (bucket.recordCount() > 0) {
          files.put(absolute(storage, bucket.indexFile()), bucket.indexFileLength());
        }
      }
    }
    return files;
  }

  private static String absolute(HdfsStorage storage, String name) {
    return storage.path(name).toUri().getPath();
  }

  private static long length(HdfsStorage storage, String name) throws IOException {
    return storage.fileSystem().getFileStatus(storage.path(name)).getLen();
  }

  /** The directives in {@code pool} whose path is inside {@code root}. */
  static List<CacheDirectiveEntry> directivesOf(DistributedFileSystem fs, Path root, String pool)
      throws IOException {
    String prefix = root.toUri().getPath() + "/";
    List<CacheDirectiveEntry> entries = new ArrayList<>();
    try {
      RemoteIterator<CacheDirectiveEntry> it = fs.listCacheDirectives(
          new CacheDirectiveInfo.Builder().setPool(pool).build());
      while (it.hasNext()) {
        CacheDirectiveEntry entry = it.next();
        if (entry.getInfo().getPath().toUri().getPath().startsWith(prefix)) {
          entries.add(entry);
        }
      }
    } catch (IOException e) {
      if (String.valueOf(e.getMessage()).contains("No such pool")
          || e instanceof FileNotFoundException) {
        return entries;
      }
      throw e;
    }
    return entries;
  }

  static boolean isAccessDenied(IOException e) {
    return e instanceof AccessControlException
        || e instanceof RemoteException remote
            && remote.getClassName().endsWith("AccessControlException");
  }

  private static DistributedFileSystem requireHdfs(FileSystem fs, Path archive) {
    if (fs instanceof DistributedFileSystem dfs) {
      return dfs;
    }
    throw new IllegalArgumentException("cache pinning needs HDFS; " + archive + " is on "
        + fs.getClass().getSimpleName());
  }
}
