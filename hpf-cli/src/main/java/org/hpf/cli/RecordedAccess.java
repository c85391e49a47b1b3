package org.hpf.cli;

import java.io.IOException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.MemberAccess;
import org.hpf.internal.read.HpfReader;

/**
 * The owners, groups and modes an archive records for its members, by access class; a member of
 * an archive older than format 4 has the archive directory's owner and group and mode 0444, as
 * the library reports.
 */
final class RecordedAccess {
  /** The mode of a member whose access is not recorded: read-only for everyone. */
  private static final int UNRECORDED_MODE = 0444;
  private final HpfReader reader;
  private final FileSystem fs;
  private final Path archive;
  private volatile MemberAccess unrecorded;

  RecordedAccess(HpfReader reader, FileSystem fs, Path archive) {
    this.reader = reader;
    this.fs = fs;
    this.archive = archive;
  }

  /**
   * Access class {@code id} of the reader's generation, as the library reports it: for 0 (not
   * recorded), the archive directory's owner and group and mode 0444.
   */
  MemberAccess of(int id) throws IOException {
    MemberAccess recorded = recorded(id);
    return recorded != null ? recorded : unrecorded();
  }

  /** Access class {@code id} of the reader's generation, or null for 0 (not recorded). */
  MemberAccess recorded(int id) throws IOException {
    return reader.manifest().access(id, reader.location());
  }

  private MemberAccess unrecorded() throws IOException {
    MemberAccess known = unrecorded;
    if (known == null) {
      FileStatus directory = fs.getFileStatus(archive);
      known = new MemberAccess(directory.getOwner(), directory.getGroup(), UNRECORDED_MODE);
      unrecorded = known;
    }
    return known;
  }
}
