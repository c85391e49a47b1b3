package org.hpf.internal.io;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.EnumSet;
import java.util.Set;

/**
 * Permission bits of local files through {@code java.nio}: given at creation, in the same step
 * (Hadoop's local file system creates, then sets the mode, by running {@code chmod} where its
 * native library is missing), read and changed in this process.
 */
public final class LocalModes {
  /** Whether local files have POSIX modes (not so on Windows). */
  public static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private LocalModes() {}

  /**
   * The attributes that create a file or directory with {@code mode} (less the umask), in one
   * step; none where files have no POSIX modes.
   */
  public static FileAttribute<?>[] attribute(int mode) {
    return POSIX ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(bits(mode))}
        : new FileAttribute<?>[0];
  }

  /** The read, write and execute bits of {@code path}, not following a link. */
  public static int of(Path path) throws IOException {
    int mode = 0;
    for (PosixFilePermission bit : Files.getPosixFilePermissions(path,
        LinkOption.NOFOLLOW_LINKS)) {
      mode |= 0400 >> bit.ordinal(); // OWNER_READ, OWNER_WRITE, ... OTHERS_EXECUTE
    }
    return mode;
  }

  /** Gives {@code path} the read, write and execute bits of {@code mode}. */
  public static void set(Path path, int mode) throws IOException {
    Files.setPosixFilePermissions(path, bits(mode));
  }

  /**
   * Gives {@code path} the group {@code group}, unless it has it; its group's bits (of
   * {@code mode}, its mode now) are taken away first, so that the group it had never holds them.
   * False where the group does not exist here or this user may not give it.
   */
  public static boolean giveGroup(Path path, String group, int mode) throws IOException {
    PosixFileAttributeView view = Files.getFileAttributeView(path,
        PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
    if (view.readAttributes().group().getName().equals(group)) {
      return true;
    }
    if ((mode & 0070) != 0) {
      set(path, mode & ~0070);
    }
    try {
      view.setGroup(path.getFileSystem().getUserPrincipalLookupService()
          .lookupPrincipalByGroupName(group));
      return true;
    } catch (UserPrincipalNotFoundException | FileSystemException e) {
      return false;
    }
  }

  private static Set<PosixFilePermission> bits(int mode) {
    Set<PosixFilePermission> bits = EnumSet.noneOf(PosixFilePermission.class);
    for (PosixFilePermission bit : PosixFilePermission.values()) {
      if ((mode & 0400 >> bit.ordinal()) != 0) {
        bits.add(bit);
      }
    }
    return bits;
  }
}
