package org.hpf.internal.build;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.io.ArchiveStorage;

/**
 * The parts that the task attempts of a job which committed nothing sealed, on a store where
 * attempts write their parts in place: no work directory holds them, so the driver finds them
 * by their attempts' seals and deletes them. An attempt that failed deleted its own; one that
 * died before its seal leaves its parts to recovery (docs/CRASH-SAFETY.md).
 */
final class SealedAttempts {
  private SealedAttempts() {}

  /** The ids of the parts named by the seals below {@code staging}. */
  static Set<Integer> parts(Configuration conf, Path staging) throws IOException {
    FileSystem fs = staging.getFileSystem(conf);
    ArchiveStorage storage = HdfsIntegration.storage(fs, staging);
    Set<Integer> ids = new TreeSet<>();
    FileStatus[] attempts;
    try {
      attempts = fs.listStatus(new Path(staging, StagedCommitter.ATTEMPTS));
    } catch (FileNotFoundException e) {
      return ids; // no attempt started
    }
    for (FileStatus attempt : attempts) {
      String dir = StagedCommitter.ATTEMPTS + "/" + attempt.getPath().getName();
      if (storage.exists(dir + "/" + ShareSeal.FILE)) {
        ids.addAll(ShareSeal.read(storage, dir).parts().keySet());
      }
    }
    return ids;
  }
}
