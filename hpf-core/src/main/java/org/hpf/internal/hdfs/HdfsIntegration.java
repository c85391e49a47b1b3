package org.hpf.internal.hdfs;

import org.hpf.WriteSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.CommitSupport;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.io.StorageProfile;
import org.hpf.internal.io.UploadBuffers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The few places where the format code hands over to the HDFS integration (docs/HDFS.md). Each
 * is a no-op, or the plain behaviour, when the archive is not on a {@link DistributedFileSystem}.
 */
public final class HdfsIntegration {
  private static final Logger LOG = LoggerFactory.getLogger(HdfsIntegration.class);

  private HdfsIntegration() {}

  /**
   * The storage of a writer: {@link HdfsStorage} on HDFS, {@link HadoopStorage} elsewhere.
   *
   * @param replication replication of new files, 0 for the file system's default
   * @param partSize the writer's part size (sizes the default block)
   */
  public static ArchiveStorage storage(FileSystem fs, Path root, short replication,
      long partSize, WriteSettings options) {
    if (fs instanceof DistributedFileSystem dfs) {
      return new HdfsStorage(dfs, root, replication, partSize, options);
    }
    return new HadoopStorage(fs, root, replication);
  }

  /**
   * The storage of a writer that changes (or creates) {@code archive}: as {@link #storage}, once
   * the store is known to be one hpf can commit to. Every change starts here, so a store without
   * a safe commit is refused before anything is written or deleted. On s3a:// the client
   * buffers its uploads in a private directory ({@link UploadBuffers}).
   *
   * @throws org.hpf.UnsupportedStoreException where hpf cannot commit safely
   */
  public static ArchiveStorage storageToChange(Configuration conf, Path archive,
      short replication, long partSize, WriteSettings options) throws IOException {
    FileSystem fs = UploadBuffers.fileSystem(archive, conf, options.scratchDirectory());
    Path root = fs.makeQualified(archive);
    StorageProfile profile = CommitSupport.require(fs, root, conf, "changing " + root);
    if (fs instanceof DistributedFileSystem) {
      return storage(fs, root, replication, partSize, options);
    }
    return new HadoopStorage(fs, root, replication, profile);
  }

  /** The storage of a reader: opening a file on HDFS fetches all its block locations. */
  public static ArchiveStorage storage(FileSystem fs, Path root) {
    return storage(fs, root, (short) 0, 0, WriteSettings.defaults());
  }

  /**
   * Called once a generation is committed (and, for changes, garbage collected): reports the
   * merged parts' storage policy and pins the generation's index files. Never throws: the commit
   * has happened; problems are warnings in the report.
   */
  public static HdfsReport afterCommit(ArchiveStorage storage, Manifest manifest) {
    HdfsReport report = storage.afterCommit(manifest);
    if (report.skipped()) {
      LOG.info("{}: HDFS features (storage policy, LazyPersist, cache pinning) skipped: {}",
          storage.location(), report.describe());
    }
    return report;
  }

  /** {@link ArchiveStorage#afterCommit} of an {@link HdfsStorage}. */
  static HdfsReport afterCommit(HdfsStorage hdfs, Manifest manifest) {
    List<String> warnings = new ArrayList<>();
    HdfsReport.Parts parts;
    try {
      parts = hdfs.takeMergeOutcome(manifest, warnings);
    } catch (IOException | RuntimeException e) {
      warnings.add("could not check where the parts' replicas are: " + e);
      parts = new HdfsReport.Parts(hdfs.options().partStoragePolicy(), null, 0, 0, 0, null);
    }
    HdfsReport.Pinning pinning = hdfs.options().pinIndex()
        ? CachePinning.sync(hdfs, manifest, hdfs.options(), warnings) : null;
    HdfsReport report = new HdfsReport(true, null, parts, pinning, warnings);
    if (warnings.isEmpty()) {
      LOG.debug("{} generation {}: {}", hdfs.location(), manifest.generation(),
          report.describe());
    } else {
      for (String warning : warnings) {
        LOG.warn("{} generation {}: {}", hdfs.location(), manifest.generation(), warning);
      }
    }
    return report;
  }

  /**
   * The blocks of {@code part} that hold the bytes {@code [offset, offset + length)}, with
   * offsets and lengths made relative to {@code offset} and clipped to the range, as HAR does
   * for its members. On HDFS from the open part's cached block list (no RPC); on other Hadoop
   * file systems from {@code getFileBlockLocations}; empty for other storages.
   */
  public static BlockLocation[] blockLocations(ArchiveStorage storage, ArchiveInput part,
      long offset, long length) throws IOException {
    BlockLocation[] blocks = storage.blockLocations(part, offset, length);
    List<BlockLocation> clipped = new ArrayList<>(blocks.length);
    for (BlockLocation block : blocks) {
      long start = Math.max(block.getOffset(), offset);
      long end = Math.min(block.getOffset() + block.getLength(), offset + length);
      if (start >= end) {
        continue;
      }
      BlockLocation copy = new BlockLocation(block);
      copy.setOffset(start - offset);
      copy.setLength(end - start);
      clipped.add(copy);
    }
    return clipped.toArray(new BlockLocation[0]);
  }
}
