package org.hpf.internal.write;

import java.io.IOException;
import java.util.Objects;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.MemberAccess;
import org.hpf.internal.access.FileAccess;
import org.hpf.internal.access.PathReaders;
import org.hpf.internal.access.Readers;

/**
 * Who may read an archive, to tell whether deleting a source would take it from someone who
 * could read it: the archive then is the only copy, and only its readers can still read it.
 */
final class ArchiveReaders {
  private final FileSystem fs;
  private final Readers readers;
  /** Directories of the sources, looked at once each. */
  private final PathReaders paths = new PathReaders();

  private ArchiveReaders(FileSystem fs, Readers readers) {
    this.fs = fs;
    this.readers = readers;
  }

  /**
   * Who may read {@code archive}: pass every directory down to it and list it. Its own status
   * is asked once, for both (on an object store each status is a HEAD and a LIST).
   */
  static ArchiveReaders of(FileSystem fs, Path archive) throws IOException {
    Path qualified = fs.makeQualified(archive);
    Readers above = qualified.getParent() == null ? Readers.EVERYONE
        : new PathReaders().through(fs, qualified.getParent());
    MemberAccess access = FileAccess.of(fs, fs.getFileStatus(qualified));
    return new ArchiveReaders(fs, above.and(FileAccess.directoryReaders(access))
        .and(FileAccess.fileReaders(access)));
  }

  /** Who may reach the entries of directory {@code dir} of {@code sources}. */
  Readers pathReaders(FileSystem sources, Path dir) throws IOException {
    return paths.through(sources, dir);
  }

  /**
   * Why a source that {@code source} may read must stay, or null when every one of them may
   * read the archive. Users of two file systems are not compared: only everyone and groups.
   */
  String excluded(FileSystem sources, Readers source) {
    Readers comparable = sameUsers(sources) ? source
        : new Readers(source.everyone(), source.group(), null);
    if (readers.covers(comparable)) {
      return null;
    }
    return "readable by " + comparable + ", and the archive only by " + readers
        + ": deleting it would take it from them";
  }

  private boolean sameUsers(FileSystem sources) {
    return Objects.equals(sources.getUri(), fs.getUri());
  }
}
