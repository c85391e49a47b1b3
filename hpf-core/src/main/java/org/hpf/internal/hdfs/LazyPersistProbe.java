package org.hpf.internal.hdfs;

import java.io.IOException;
import java.util.UUID;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds out whether LazyPersist writes reach RAM_DISK on this cluster, before any part is
 * written with the policy: HDFS silently falls back to DISK when the DataNodes have no RAM_DISK
 * volume, no free RAM_DISK space or no locked memory, and a part created LAZY_PERSIST keeps the
 * policy (and its risks) for ever. Writes one byte with the LAZY_PERSIST flag to a temporary file
 * in the archive directory, asks where its replica went and deletes it: about 5 NameNode RPCs
 * and one small write pipeline.
 */
final class LazyPersistProbe {
  private static final Logger LOG = LoggerFactory.getLogger(LazyPersistProbe.class);

  private LazyPersistProbe() {}

  /** Null if a LazyPersist replica lands in RAM_DISK, else why not (one sentence). */
  static String probe(DistributedFileSystem fs, Path dir, short replication) {
    Path probe = new Path(dir, ".lazy-persist-probe-" + UUID.randomUUID());
    try {
      try (FSDataOutputStream out = fs.createFile(probe).overwrite(false).lazyPersist()
          .replication(replication).build()) {
        out.write(1);
      } catch (IOException e) {
        return "the NameNode refused a LAZY_PERSIST file: " + firstLine(e);
      }
      BlockLocation[] blocks = fs.getFileBlockLocations(probe, 0, 1);
      for (BlockLocation block : blocks) {
        for (StorageType type : block.getStorageTypes()) {
          if (type == StorageType.RAM_DISK) {
            return null;
          }
        }
      }
      return "a LAZY_PERSIST test write landed on DISK: the DataNodes have no RAM_DISK volume, no"
          + " free RAM_DISK space or no locked memory (dfs.datanode.max.locked.memory)";
    } catch (IOException e) {
      return "the LAZY_PERSIST test write failed: " + firstLine(e);
    } finally {
      try {
        fs.delete(probe, false);
      } catch (IOException e) {
        LOG.warn("could not delete the probe file {}: {}", probe, e.toString());
      }
    }
  }

  static String firstLine(Exception e) {
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
