package org.hpf.internal.io;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.UnsupportedStoreException;

/**
 * Refuses to change an archive on a store whose {@link StorageProfile} is not {@link
 * StorageProfile#RENAME}: every writer asks here before it writes or deletes anything, so a
 * refused change leaves the store exactly as it was.
 */
public final class CommitSupport {
  private static final String INSTEAD =
      "write the archive on HDFS or a local disk and copy it to the store";

  private CommitSupport() {}

  /**
   * Returns normally where hpf can commit to {@code archive}'s store.
   *
   * @param refused what is refused otherwise, for the message ("changing the archive")
   * @throws UnsupportedStoreException where it cannot
   */
  public static void require(FileSystem fs, Path archive, Configuration conf, String refused)
      throws IOException {
    StorageProfile profile = StorageProfile.of(fs, archive, conf);
    if (profile == StorageProfile.RENAME) {
      return;
    }
    String store = "the store at " + fs.makeQualified(archive);
    String reason;
    if (profile == StorageProfile.CONDITIONAL_CREATE) {
      reason = store + " offers no atomic rename; it offers conditional create ("
          + StorageProfile.CONDITIONAL_CREATE_CAPABILITY + "), but commits by conditional"
          + " create are not supported yet";
    } else if (StorageProfile.probe(fs, archive) != StorageProfile.READ_ONLY) {
      // The store offers more: the operator's setting made it read-only.
      reason = store + " is read-only to hpf (" + StorageProfile.KEY + "=read-only)";
    } else {
      reason = store + " offers no atomic rename and no conditional create ("
          + StorageProfile.CONDITIONAL_CREATE_CAPABILITY + "); hpf cannot commit safely there";
    }
    throw new UnsupportedStoreException(refused + " is refused: " + reason + ": " + INSTEAD);
  }
}
