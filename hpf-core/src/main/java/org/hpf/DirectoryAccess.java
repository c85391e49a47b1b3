package org.hpf;

import java.io.IOException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * What members of archives written before format 4 report as their access: the owner and group
 * of the archive's directory, mode 0444. Looked up once, when first needed.
 */
final class DirectoryAccess {
  /** The mode of a member whose access is not recorded: read-only for everyone. */
  static final int UNRECORDED_MODE = 0444;

  private final FileSystem fs;
  private final Path archive;
  private volatile MemberAccess access;

  DirectoryAccess(FileSystem fs, Path archive) {
    this.fs = fs;
    this.archive = archive;
  }

  MemberAccess get() throws IOException {
    MemberAccess known = access;
    if (known == null) {
      FileStatus directory = fs.getFileStatus(archive);
      known = new MemberAccess(directory.getOwner(), directory.getGroup(), UNRECORDED_MODE);
      access = known;
    }
    return known;
  }
}
