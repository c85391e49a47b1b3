package org.hpf.internal.hdfs;

import org.hpf.WriteSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.ForwardingStorage;
import org.hpf.internal.io.HadoopStorage;

/**
 * {@link ArchiveStorage} on a {@link DistributedFileSystem}: plain {@link HadoopStorage} plus
 * what HDFS offers an archive.
 * <ul>
 *   <li>Part files get the configured storage policy; the parts a merge writes can be
 *       LazyPersist ({@link #createMergedPart}).
 *   <li>{@link #open} fetches every block location of the file from the NameNode at once (one
 *       RPC, no {@code getFileStatus}), so no positioned read of the open file asks the NameNode
 *       again, and the file's block locations are known without an RPC.
 *   <li>{@link #defaultBlockSize()} sizes part blocks so that a part is a few blocks.
 * </ul>
 * Everything else is {@link HadoopStorage}'s.
 */
public final class HdfsStorage extends ForwardingStorage {
  private static final long MIB = 1 << 20;

  private final DistributedFileSystem fs;
  private final HadoopStorage plain;
  private final long partSize;
  private final WriteSettings options;
  private String lazyPersistProblem;
  private boolean probed;
  private Merge currentMerge;
  private Long cacheCapacity;

  /**
   * @param replication replication of new files, or 0 for the file system's default
   * @param partSize the writer's part size (for the default block size), or 0 for a reader
   */
  public HdfsStorage(DistributedFileSystem fs, Path root, short replication, long partSize,
      WriteSettings options) {
    this(fs, new HadoopStorage(fs, root, replication), partSize, options);
  }

  private HdfsStorage(DistributedFileSystem fs, HadoopStorage plain, long partSize,
      WriteSettings options) {
    super(plain);
    this.fs = fs;
    this.plain = plain;
    this.partSize = partSize;
    this.options = options;
  }

  public DistributedFileSystem fileSystem() {
    return fs;
  }

  public Path root() {
    return plain.root();
  }

  public Path path(String name) {
    return plain.path(name);
  }

  public WriteSettings options() {
    return options;
  }

  /**
   * The block size of part (and index) files when the writer sets none: the cluster's
   * {@code dfs.blocksize}, raised to an eighth of the part size and lowered to half of it, so
   * that a part is 2 to 8 blocks; rounded down to whole MiB, at least 1 MiB. See docs/HDFS.md.
   */
  @Override
  public long defaultBlockSize() {
    return partBlockSize(fs.getDefaultBlockSize(plain.root()), partSize);
  }

  static long partBlockSize(long clusterBlockSize, long partSize) {
    long size = clusterBlockSize;
    if (partSize > 0) {
      size = Math.min(Math.max(size, partSize / 8), partSize / 2);
    }
    return Math.max(MIB, size / MIB * MIB);
  }

  @Override
  public ArchiveOutput create(String name, long blockSize) throws IOException {
    String policy = options.partStoragePolicy();
    if (!isPart(name) || policy == null || options.lazyPersist()) {
      return plain.create(name, blockSize);
    }
    return createPart(name, blockSize, false);
  }

  private ArchiveOutput createPart(String name, long blockSize, boolean lazyPersist)
      throws IOException {
    Path path = path(name);
    var builder = HadoopStorage.syncingEveryBlock(fs, path, plain.replication(), blockSize)
        .permission(plain.filePermission());
    if (lazyPersist) {
      builder.lazyPersist();
    } else if (options.partStoragePolicy() != null && !options.lazyPersist()) {
      builder.storagePolicyName(options.partStoragePolicy());
    }
    return new HadoopStorage.HadoopOutput(builder.build());
  }

  private static boolean isPart(String name) {
    return name.startsWith("part-");
  }

  /**
   * A part a create, append or job task merges into: LazyPersist when the options ask for it
   * and a probe found RAM_DISK replicas possible (probed once per storage), else as
   * {@link #create}. The parts are remembered for the report of the next commit.
   */
  @Override
  public ArchiveOutput createMergedPart(String name, long blockSize) throws IOException {
    Merge merge = merge();
    merge.parts.add(name);
    return merge.lazy ? createPart(name, blockSize, true) : create(name, blockSize);
  }

  private synchronized Merge merge() throws IOException {
    if (currentMerge == null) {
      String fallback = null;
      boolean lazy = false;
      if (options.lazyPersist()) {
        if (!probed) {
          lazyPersistProblem = LazyPersistProbe.probe(fs, plain.root(), plain.replication());
          probed = true;
        }
        fallback = lazyPersistProblem;
        lazy = fallback == null;
      }
      currentMerge = new Merge(lazy, fallback);
    }
    return currentMerge;
  }

  @Override
  public HdfsReport afterCommit(Manifest manifest) {
    return HdfsIntegration.afterCommit(this, manifest);
  }

  @Override
  public org.apache.hadoop.fs.BlockLocation[] blockLocations(ArchiveInput file, long offset,
      long length) throws IOException {
    return file.unwrap() instanceof HdfsInput hdfs ? hdfs.blocks(offset, length)
        : super.blockLocations(file, offset, length);
  }

  /**
   * The outcome of the last merge, cleared: what the policy of its parts that {@code manifest}
   * uses became and, for LazyPersist, where their replicas are (one RPC per part).
   */
  HdfsReport.Parts takeMergeOutcome(Manifest manifest, List<String> warnings)
      throws IOException {
    Merge merge;
    synchronized (this) {
      merge = currentMerge;
      currentMerge = null;
    }
    String requested = options.partStoragePolicy();
    if (merge == null) {
      return new HdfsReport.Parts(requested, null, 0, 0, 0, null);
    }
    Set<String> committed = new HashSet<>();
    for (Manifest.PartInfo part : manifest.parts()) {
      committed.add(ArchiveLayout.part(part.id()));
    }
    List<String> merged = new ArrayList<>();
    for (String name : merge.parts) {
      if (committed.contains(name)) {
        merged.add(name);
      }
    }
    String applied = merge.lazy ? WriteSettings.LAZY_PERSIST
        : requested != null && !options.lazyPersist() ? requested : null;
    int parts = 0;
    long blocks = 0;
    long inRam = 0;
    for (String name : merge.lazy ? merged : List.<String>of()) {
      parts++;
      for (BlockLocation block : fs.getFileBlockLocations(path(name), 0, Long.MAX_VALUE)) {
        blocks++;
        for (StorageType type : block.getStorageTypes()) {
          if (type == StorageType.RAM_DISK) {
            inRam++;
            break;
          }
        }
      }
    }
    String fallback = merge.fallback;
    if (fallback != null) {
      warnings.add(requested + " was asked for the parts but not used: " + fallback
          + "; the parts were written with the directory's storage policy");
    } else if (merge.lazy && blocks > 0 && inRam == 0) {
      fallback = "the DataNodes placed no replica in RAM_DISK (RAM_DISK full or locked memory"
          + " used up); the parts are LAZY_PERSIST files on DISK";
      warnings.add(fallback);
    } else if (merge.lazy && inRam < blocks) {
      warnings.add((blocks - inRam) + " of " + blocks + " part blocks fell back to DISK"
          + " (RAM_DISK full or locked memory used up)");
    }
    if (inRam > 0) {
      warnings.add(inRam + " of " + blocks + " part blocks have replicas in RAM_DISK that HDFS"
          + " may not have persisted yet: a DataNode restart before its lazy writer saves them"
          + " loses them (LAZY_PERSIST is best-effort; see docs/HDFS.md)");
    }
    if (!merge.lazy) {
      parts = merged.size();
    }
    return new HdfsReport.Parts(requested, applied, parts, blocks, inRam, fallback);
  }

  /**
   * The DataNodes' total cache capacity (locked memory), asked once per storage; -1 when the
   * user may not ask (the DataNode report is for the superuser).
   */
  long cacheCapacity() {
    if (cacheCapacity == null) {
      long capacity = 0;
      try {
        for (org.apache.hadoop.hdfs.protocol.DatanodeInfo node : fs.getDataNodeStats(
            org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType.LIVE)) {
          capacity += node.getCacheCapacity();
        }
      } catch (IOException e) {
        capacity = -1;
      }
      cacheCapacity = capacity;
    }
    return cacheCapacity;
  }

  @Override
  public ArchiveInput open(String name) throws IOException {
    FSDataInputStream in = fs.open(path(name));
    try {
      HdfsDataInputStream hdfs = (HdfsDataInputStream) in;
      // Every block location now: positioned reads anywhere in the file then find their block
      // in the stream's cache instead of asking the NameNode (it asks only after a failure).
      // An empty file has no block to ask for (and the NameNode refuses offset 0 of length 0).
      long length = hdfs.getVisibleLength();
      if (length > 0) {
        hdfs.getAllBlocks();
      }
      return new HdfsInput(name, hdfs, length);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  @Override
  public void close() {
    plain.close();
  }

  /** The parts merged since the last commit, and how they were placed. */
  private static final class Merge {
    final boolean lazy;
    final String fallback;
    final Queue<String> parts = new ConcurrentLinkedQueue<>();

    Merge(boolean lazy, String fallback) {
      this.lazy = lazy;
      this.fallback = fallback;
    }
  }

  /** An open HDFS file whose block locations were all fetched when it was opened. */
  static final class HdfsInput extends HadoopStorage.HadoopInput {
    private final HdfsDataInputStream in;

    HdfsInput(String name, HdfsDataInputStream in, long length) {
      super(name, in, length);
      this.in = in;
    }

    /**
     * The blocks overlapping {@code [offset, offset + len)}, from the stream's cache of block
     * locations (kept up to date by the stream when a DataNode fails): no NameNode RPC.
     */
    BlockLocation[] blocks(long offset, long len) throws IOException {
      List<LocatedBlock> overlapping = new ArrayList<>();
      for (LocatedBlock block : in.getAllBlocks()) {
        long start = block.getStartOffset();
        if (start < offset + len && start + block.getBlockSize() > offset) {
          overlapping.add(block);
        }
      }
      return DFSUtilClient.locatedBlocks2Locations(overlapping);
    }
  }
}
