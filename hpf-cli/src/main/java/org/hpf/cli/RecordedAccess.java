package org.hpf.cli;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.MemberAccess;
import org.hpf.internal.read.DirectoryAccess;
import org.hpf.internal.read.HpfReader;

/**
 * The owners, groups and modes an archive records for its members, by access class; a member of
 * an archive older than format 4 has the archive directory's owner and group and mode 0444, as
 * the library reports.
 */
final class RecordedAccess {
  private final HpfReader reader;
  private final DirectoryAccess unrecorded;

  RecordedAccess(HpfReader reader, FileSystem fs, Path archive) {
    this.reader = reader;
    this.unrecorded = new DirectoryAccess(fs, archive);
  }

  /**
   * Access class {@code id} of the reader's generation, as the library reports it: for 0 (not
   * recorded), the archive directory's owner and group and mode 0444.
   */
  MemberAccess of(int id) throws IOException {
    return unrecorded.of(reader, id);
  }

  /** Access class {@code id} of the reader's generation, or null for 0 (not recorded). */
  MemberAccess recorded(int id) throws IOException {
    return reader.manifest().access(id, reader.location());
  }
}
