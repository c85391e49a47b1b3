package org.hpf.internal.access;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * A file's owner, group and permission bits (12 bits: rwx of user, group and other, sticky,
 * setgid, setuid).
 *
 * @param mode the permission bits
 */
public record FileAccess(String owner, String group, int mode) {
  /** The permission bits a mode keeps. */
  public static final int MODE_BITS = 07777;

  /**
   * The access of {@code status}, a file or directory of {@code fs}. On the local file system
   * it is read with one {@code stat} of the file: Hadoop's local status would run a process per
   * file to find it.
   */
  public static FileAccess of(FileSystem fs, FileStatus status) throws IOException {
    if (fs instanceof RawLocalFileSystem local) {
      Map<String, Object> unix = Files.readAttributes(
          local.pathToFile(status.getPath()).toPath(), "unix:mode,owner,group");
      return new FileAccess(unix.get("owner").toString(), unix.get("group").toString(),
          (Integer) unix.get("mode") & MODE_BITS);
    }
    return new FileAccess(status.getOwner(), status.getGroup(),
        status.getPermission().toShort() & MODE_BITS);
  }

  /** Who may read it, as a file. */
  public Readers fileReaders() {
    return Readers.ofFile(owner, group, mode);
  }

  /** Who may pass through it, as a directory. */
  public Readers directoryReaders() {
    return Readers.ofDirectory(owner, group, mode);
  }
}
