package org.hpf.internal.access;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.hpf.MemberAccess;

/**
 * The owner, group and mode of a file or directory, and who they let read it. Local files are
 * read through the JDK, with one {@code stat}: Hadoop's local status drops setuid and setgid and,
 * without Hadoop's native library, runs a process per file to find the rest. The {@code unix}
 * view where there is one, else the POSIX view; on a file system with neither, null (unknown).
 * Files of other Hadoop file systems (HDFS) give their status's owner, group and permission.
 */
public final class FileAccess {
  private FileAccess() {}

  /** The access of {@code status}, a file or directory of {@code fs}; null when unknown. */
  public static MemberAccess of(FileSystem fs, FileStatus status) throws IOException {
    if (fs instanceof LocalFileSystem local) {
      return local(local.pathToFile(status.getPath()).toPath());
    }
    if (fs instanceof RawLocalFileSystem raw) {
      return local(raw.pathToFile(status.getPath()).toPath());
    }
    return new MemberAccess(orEmpty(status.getOwner()), orEmpty(status.getGroup()),
        status.getPermission().toShort() & 01777);
  }

  private static String orEmpty(String name) {
    return name == null ? "" : name;
  }

  /** The access of a local file, or null on a file system without POSIX attributes. */
  public static MemberAccess local(java.nio.file.Path file) throws IOException {
    Set<String> views = file.getFileSystem().supportedFileAttributeViews();
    if (views.contains("unix")) {
      Map<String, Object> unix = Files.readAttributes(file, "unix:mode,owner,group");
      return new MemberAccess(((UserPrincipal) unix.get("owner")).getName(),
          ((GroupPrincipal) unix.get("group")).getName(),
          (Integer) unix.get("mode") & MemberAccess.MODE_BITS);
    }
    if (views.contains("posix")) {
      java.nio.file.attribute.PosixFileAttributes posix = Files.readAttributes(file,
          java.nio.file.attribute.PosixFileAttributes.class);
      int mode = 0;
      for (PosixFilePermission bit : posix.permissions()) {
        mode |= 0400 >> bit.ordinal();
      }
      return new MemberAccess(posix.owner().getName(), posix.group().getName(), mode);
    }
    return null;
  }

  /** Who may read a file of this access; everyone when it is unknown (nothing to keep). */
  public static Readers fileReaders(MemberAccess access) {
    return access == null ? Readers.EVERYONE
        : Readers.ofFile(access.owner(), access.group(), access.mode());
  }

  /** Who may pass through a directory of this access; everyone when it is unknown. */
  public static Readers directoryReaders(MemberAccess access) {
    return access == null ? Readers.EVERYONE
        : Readers.ofDirectory(access.owner(), access.group(), access.mode());
  }
}
