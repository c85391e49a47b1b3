package org.hpf.internal.read;

import java.io.IOException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.MemberAccess;

/**
 * What members of archives written before format 4 report as their access: the owner and group
 * of the archive's directory, mode 0444. Looked up once, when first needed.
 */
public final class DirectoryAccess {
  /** The mode of a member whose access is not recorded: read-only for everyone. */
  public static final int UNRECORDED_MODE = 0444;

  private final FileSystem fs;
  private final Path archive;
  private volatile MemberAccess access;

  public DirectoryAccess(FileSystem fs, Path archive) {
    this.fs = fs;
    this.archive = archive;
  }

  /**
   * Access class {@code id} of {@code reader}'s generation as readers report it: for 0 (not
   * recorded), the unrecorded access.
   */
  public MemberAccess of(HpfReader reader, int id) throws IOException {
    MemberAccess recorded = reader.manifest().access(id, reader.location());
    return recorded != null ? recorded : get();
  }

  /** The access of a member whose access is not recorded. */
  public MemberAccess get() throws IOException {
    MemberAccess known = access;
    if (known == null) {
      FileStatus directory = fs.getFileStatus(archive);
      known = new MemberAccess(directory.getOwner(), directory.getGroup(), UNRECORDED_MODE);
      access = known;
    }
    return known;
  }
}
