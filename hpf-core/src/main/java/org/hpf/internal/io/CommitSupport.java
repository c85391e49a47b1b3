package org.hpf.internal.io;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.UnsupportedStoreException;

/**
 * Refuses to change an archive on a store where hpf cannot commit safely: every writer asks here
 * before it writes or deletes anything, so a refused change leaves the store exactly as it was.
 * A store that renames atomically ({@link StorageProfile#RENAME}) or creates conditionally ({@link
 * StorageProfile#CONDITIONAL_CREATE}) takes every change; a store with neither, none.
 */
public final class CommitSupport {
  private static final String INSTEAD =
      "write the archive on HDFS or a local disk and copy it to the store";

  private CommitSupport() {}

  /**
   * Returns how hpf commits to {@code archive}'s store where it can.
   *
   * @param refused what is refused otherwise, for the message ("changing the archive")
   * @throws UnsupportedStoreException where it cannot
   */
  public static StorageProfile require(FileSystem fs, Path archive, Configuration conf,
      String refused) throws IOException {
    StorageProfile profile = StorageProfile.of(fs, archive, conf);
    if (profile != StorageProfile.READ_ONLY) {
      return profile;
    }
    String store = "the store at " + fs.makeQualified(archive);
    String reason;
    if (StorageProfile.probe(fs, archive) != StorageProfile.READ_ONLY) {
      // The store offers more: the operator's setting made it read-only.
      reason = store + " is read-only to hpf (" + StorageProfile.KEY + "=read-only)";
    } else {
      reason = store + " offers no atomic rename and no conditional create ("
          + StorageProfile.CONDITIONAL_CREATE_CAPABILITY + "); hpf cannot commit safely there";
    }
    throw new UnsupportedStoreException(refused + " is refused: " + reason + ": " + INSTEAD);
  }
}
