package org.hpf.internal.hdfs;

import org.hpf.WriteSettings;
import java.util.List;

/**
 * What one create, append, delete or compaction did with HDFS features, and what it skipped and
 * why (docs/HDFS.md). Returned in {@code CreateResult.hdfs()} and {@code ChangeResult.hdfs()};
 * skips and fallbacks are also logged at WARN, "not HDFS" at INFO.
 *
 * @param distributed whether the archive is on a DistributedFileSystem; when false every feature
 *     was skipped ({@code skipReason} says why) and {@code parts} and {@code pinning} are null
 * @param parts the storage policy of the parts this operation merged
 * @param pinning the cache directives after the commit
 * @param warnings everything that did not go as asked, one sentence each
 */
public record HdfsReport(boolean distributed, String skipReason, Parts parts, Pinning pinning,
    List<String> warnings) {

  public HdfsReport {
    warnings = List.copyOf(warnings);
  }

  /**
   * The storage policy of the parts a create or append merged.
   *
   * @param requestedPolicy the policy asked for ({@link WriteSettings#partStoragePolicy()}), or
   *     null
   * @param appliedPolicy the policy the parts were created with, or null for the directory's
   * @param parts parts this operation wrote while merging
   * @param blocks their blocks, counted only when LazyPersist was used (else 0)
   * @param blocksInRamDisk of those, blocks with at least one replica in RAM_DISK at the commit
   * @param fallback why the requested policy was not applied, or null
   */
  public record Parts(String requestedPolicy, String appliedPolicy, int parts, long blocks,
      long blocksInRamDisk, String fallback) {

    static final Parts NONE = new Parts(null, null, 0, 0, 0, null);

    /**
     * True when some of the parts' replicas sat in RAM_DISK at the commit: HDFS does not tell a
     * client whether they have been persisted yet, so a DataNode restart can still lose them.
     */
    public boolean durabilityNotKnown() {
      return blocksInRamDisk > 0;
    }
  }

  /**
   * The cache directives of the archive after a commit.
   *
   * @param pool the cache pool
   * @param filesPinned files of the new generation with a directive (index files, directories,
   *     manifest)
   * @param bytesPinned their length times the cache replication: what the DataNodes need to cache
   * @param added directives this commit added
   * @param removed directives this commit removed (files the generation no longer uses)
   * @param skipped why pinning was not done (or not completely), or null
   */
  public record Pinning(String pool, int filesPinned, long bytesPinned, int added, int removed,
      String skipped) {

    static Pinning skipped(String pool, String why) {
      return new Pinning(pool, 0, 0, 0, 0, why);
    }
  }

  /** This report with {@code other} as its pinning, and {@code more} warnings. */
  HdfsReport withPinning(Pinning other, List<String> more) {
    List<String> all = new java.util.ArrayList<>(warnings);
    all.addAll(more);
    return new HdfsReport(distributed, skipReason, parts, other, all);
  }

  static HdfsReport notHdfs(String reason) {
    return new HdfsReport(false, reason, null, null, List.of());
  }

  /** The report of a storage without HDFS features: why they were skipped. */
  public static HdfsReport skipped(String reason) {
    return notHdfs(reason);
  }

  /** True when no HDFS feature was used because the archive is not on HDFS. */
  public boolean skipped() {
    return !distributed;
  }

  /** One line for logs and the CLI. */
  public String describe() {
    return describe(true);
  }

  /**
   * One line; without {@code reasons}, a pinning skipped names no reason but the warning that
   * gives it (the command line prints the warnings apart, once).
   */
  public String describe(boolean reasons) {
    if (!distributed) {
      return "HDFS features skipped: " + skipReason;
    }
    StringBuilder text = new StringBuilder();
    if (parts.requestedPolicy() != null) {
      text.append("parts: ").append(parts.appliedPolicy() == null ? "directory's policy"
          : parts.appliedPolicy());
      if (parts.fallback() != null) {
        text.append(" (").append(parts.requestedPolicy()).append(" not used: ")
            .append(parts.fallback()).append(')');
      }
      if (parts.blocks() > 0) {
        text.append(", ").append(parts.blocksInRamDisk()).append(" of ").append(parts.blocks())
            .append(" blocks in RAM_DISK");
      }
      text.append("; ");
    }
    if (pinning == null) {
      text.append("cache pinning off");
    } else if (pinning.skipped() != null && pinning.filesPinned() == 0) {
      text.append("cache pinning skipped").append(reasons ? ": " + pinning.skipped()
          : " (see the warning)");
    } else {
      text.append("pinned ").append(pinning.filesPinned()).append(" files (")
          .append(pinning.bytesPinned()).append(" bytes) in pool ").append(pinning.pool())
          .append(", +").append(pinning.added()).append(" -").append(pinning.removed())
          .append(" directives");
      if (pinning.skipped() != null) {
        text.append("; ").append(reasons ? pinning.skipped() : "see the warning");
      }
    }
    return text.toString();
  }
}
