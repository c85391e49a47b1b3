package org.hpf.internal.hdfs;

import java.util.List;

/**
 * How much of an archive's newest generation the DataNodes hold in memory
 * ({@link CachePinning#status}): the NameNode's figures for this archive's directives, which it
 * updates from the DataNodes' cache reports ({@code dfs.cachereport.intervalMsec}) after each
 * rescan of the directives ({@code dfs.namenode.path.based.cache.refresh.interval.ms}).
 *
 * @param archive the archive's location
 * @param pool the cache pool looked at
 * @param generation the newest generation
 * @param filesWanted files of that generation hpf pins (manifest, directories, index files)
 * @param directives directives for those files
 * @param staleDirectives directives of this archive for other files (a commit removes them)
 * @param filesNeeded files the directives cover, as the NameNode counts them
 * @param filesCached of those, files entirely cached
 * @param bytesNeeded bytes the directives ask to cache (length times cache replication)
 * @param bytesCached bytes cached
 * @param unpinned paths of wanted files that have no directive
 */
public record CacheStatus(String archive, String pool, long generation, int filesWanted,
    int directives, int staleDirectives, long filesNeeded, long filesCached, long bytesNeeded,
    long bytesCached, List<String> unpinned) {

  public CacheStatus {
    unpinned = List.copyOf(unpinned);
  }

  /**
   * Every wanted file has a directive and is entirely cached (false until the NameNode has
   * rescanned new directives and heard from the DataNodes).
   */
  public boolean fullyCached() {
    return unpinned.isEmpty() && directives == filesWanted && filesCached == filesWanted
        && bytesCached >= bytesNeeded;
  }

  /** One line for the CLI ({@code hpf cache --status}). */
  public String describe() {
    return String.format(java.util.Locale.ROOT,
        "%s generation %d, pool %s: %d of %d bytes cached (%d of %d files; %d files without a"
            + " directive, %d stale directives)",
        archive, generation, pool, bytesCached, bytesNeeded, filesCached, filesWanted,
        unpinned.size(), staleDirectives);
  }
}
