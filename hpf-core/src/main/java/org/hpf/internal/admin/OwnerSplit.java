package org.hpf.internal.admin;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;
import org.hpf.ArchiveExistsException;
import org.hpf.HpfException;
import org.hpf.SourceException;
import org.hpf.SymlinkPolicy;
import org.hpf.internal.access.Superuser;
import org.hpf.internal.write.SourceOwners;

/**
 * Archives many users' files into one archive per owner, each given to its owner once written:
 * how an administrator archives {@code /user/*} and keeps every user able to read their own
 * files and nobody else's. Each archive holds only its owner's files and is read by no more
 * than its owner's sources allow, so no owner loses access to their own files; HDFS enforces
 * it, since each archive is a directory of its owner's. The archives go into one directory,
 * named {@code <owner>.hpf}.
 *
 * <p>Giving files to another user is the superuser's: a user who is not may split only their
 * own files.
 */
public final class OwnerSplit {
  /** Suffix of each owner's archive in the directory. */
  public static final String SUFFIX = ".hpf";

  /** One owner's archive to make: where, from which roots, and how many files it will hold. */
  public record Planned(String owner, Path archive, List<Path> roots, long files, long bytes) {}

  private OwnerSplit() {}

  /**
   * Walks the sources once and plans an archive per owner in {@code directory}, checking
   * before anything is written that every owner's name can name an archive, that none of the
   * archives exists, and that the running user may give each archive to its owner.
   */
  public static List<Planned> plan(Configuration conf, List<Path> roots, Path directory,
      SymlinkPolicy symlinks) throws IOException {
    FileSystem fs = directory.getFileSystem(conf);
    Path qualified = fs.makeQualified(directory);
    try {
      FileStatus status = fs.getFileStatus(qualified);
      if (!status.isDirectory()) {
        throw new ArchiveExistsException(qualified + " (a file, where a directory of "
            + "archives is to go)");
      }
    } catch (FileNotFoundException e) {
      // made with the first archive
    }
    List<Planned> planned = new ArrayList<>();
    List<String> others = new ArrayList<>();
    String me = UserGroupInformation.getCurrentUser().getShortUserName();
    for (SourceOwners.Owned owned : SourceOwners.of(conf, roots, symlinks)) {
      Path archive = archiveOf(qualified, owned.owner());
      if (fs.exists(archive)) {
        throw new ArchiveExistsException(archive.toString());
      }
      if (!owned.owner().equals(me)) {
        others.add(owned.owner());
      }
      planned.add(new Planned(owned.owner(), archive, owned.rootsOf(roots), owned.files(),
          owned.bytes()));
    }
    if (!others.isEmpty() && !Superuser.at(fs)) {
      throw new HpfException("the sources hold files of "
          + String.join(", ", others.subList(0, Math.min(5, others.size())))
          + (others.size() > 5 ? " and " + (others.size() - 5) + " more" : "")
          + ", and only the superuser of " + fs.getUri() + " may give them archives of their "
          + "own; nothing was written");
    }
    return planned;
  }

  /** The archive of {@code owner} in {@code directory}. */
  static Path archiveOf(Path directory, String owner) throws SourceException {
    if (owner.isEmpty() || owner.equals(".") || owner.equals("..")
        || owner.chars().anyMatch(c -> c == '/' || c == ':' || c < 0x20)) {
      throw new SourceException("the owner name '" + owner + "' cannot name an archive");
    }
    return new Path(directory, owner + SUFFIX);
  }

  /**
   * Gives a written archive to its owner: every file and directory in it, the archive's own
   * directory last, so the owner may read, change and remove it as their own. Until that last
   * step the archive is the running user's, and reads no wider than its owner's sources allow.
   */
  public static void giveTo(Configuration conf, Planned planned) throws IOException {
    FileSystem fs = planned.archive().getFileSystem(conf);
    if (fs.getFileStatus(planned.archive()).getOwner().equals(planned.owner())) {
      return;
    }
    giveContents(fs, planned.archive(), planned.owner());
    fs.setOwner(planned.archive(), planned.owner(), null);
  }

  private static void giveContents(FileSystem fs, Path dir, String owner) throws IOException {
    for (FileStatus child : fs.listStatus(dir)) {
      if (child.isDirectory()) {
        giveContents(fs, child.getPath(), owner);
      }
      fs.setOwner(child.getPath(), owner, null);
    }
  }
}
