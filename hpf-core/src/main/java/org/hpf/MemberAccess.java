package org.hpf;

import java.io.IOException;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Who owns a member and what its permission bits are, as an archive records them (format 4 and
 * later): an owner and a group name and the twelve POSIX mode bits (read, write and execute of
 * user, group and others; sticky, setgid and setuid), as they were when the member was added.
 *
 * <p>Hadoop's {@link FsPermission} holds no setuid and setgid bits, so {@link #mode()} is the
 * full record and {@link #permission()} its Hadoop view (rwx bits and the sticky bit).
 *
 * @param owner the owner's name, at most 65,535 UTF-8 bytes; may be empty
 * @param group the group's name, at most 65,535 UTF-8 bytes; may be empty
 * @param mode the mode bits, 0 to {@code 07777} (as {@code FsPermission.toShort()} and
 *     {@code stat(2)}: 0400 owner read, 01000 sticky, 02000 setgid, 04000 setuid)
 */
public record MemberAccess(String owner, String group, int mode) {
  /** The bits a mode may have: rwxrwxrwx, sticky, setgid and setuid. */
  public static final int MODE_BITS = 07777;
  /** The setuid bit of {@link #mode()}. */
  public static final int SETUID = 04000;
  /** The setgid bit of {@link #mode()}. */
  public static final int SETGID = 02000;
  /** The sticky bit of {@link #mode()}. */
  public static final int STICKY = 01000;
  /** The file mode {@link #defaultFor} masks with the umask. */
  private static final int FILE_MODE = 0644;
  private static final int NAME_LIMIT = 0xFFFF;

  /**
   * Checks the fields.
   *
   * @param owner the owner's name
   * @param group the group's name
   * @param mode the mode bits
   * @throws NullPointerException if a name is null
   * @throws IllegalArgumentException if the mode has bits outside {@link #MODE_BITS} or a name
   *     is longer than 65,535 UTF-8 bytes
   */
  public MemberAccess {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(group, "group");
    if ((mode & ~MODE_BITS) != 0) {
      throw new IllegalArgumentException("mode " + Integer.toOctalString(mode)
          + " has bits outside 07777");
    }
    checkLength("owner", owner);
    checkLength("group", group);
  }

  private static void checkLength(String what, String name) {
    if (name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > NAME_LIMIT) {
      throw new IllegalArgumentException(what + " name longer than 65,535 UTF-8 bytes");
    }
  }

  /**
   * The access of a Hadoop permission: its rwx and sticky bits (an {@link FsPermission} holds
   * no setuid or setgid bit; use the constructor for those).
   *
   * @param owner the owner's name
   * @param group the group's name
   * @param permission the permission
   * @return the access
   */
  public static MemberAccess of(String owner, String group, FsPermission permission) {
    return new MemberAccess(owner, group, permission.toShort() & 01777);
  }

  /**
   * What a writer records for a member added through {@link ArchiveWriter#add} without an
   * access of its own, unless {@link WriteSettings.Builder#defaultAccess} says otherwise: the
   * writing user (Hadoop's current user, short name), their primary group (their name when
   * they have no group), and mode 0644 masked by {@code fs.permissions.umask-mode} of
   * {@code conf} (default 022: 0644).
   *
   * @param conf the configuration whose umask applies
   * @return the access
   * @throws IOException if the current user cannot be found
   */
  public static MemberAccess defaultFor(Configuration conf) throws IOException {
    UserGroupInformation user = UserGroupInformation.getCurrentUser();
    String[] groups = user.getGroupNames();
    String group = groups.length > 0 ? groups[0] : user.getShortUserName();
    int umask = FsPermission.getUMask(conf).toShort() & 0777;
    return new MemberAccess(user.getShortUserName(), group, FILE_MODE & ~umask);
  }

  /**
   * The Hadoop view of {@link #mode()}: its rwx bits and sticky bit (no setuid or setgid).
   *
   * @return a new permission
   */
  public FsPermission permission() {
    return new FsPermission((short) (mode & 01777));
  }

  /**
   * The mode as {@code ls -l} shows it, setuid, setgid and sticky included:
   * {@code rwsr-xr-x}.
   *
   * @return nine characters
   */
  public String symbolic() {
    char[] out = "rwxrwxrwx".toCharArray();
    for (int i = 0; i < 9; i++) {
      if ((mode & (0400 >> i)) == 0) {
        out[i] = '-';
      }
    }
    special(out, 2, (mode & SETUID) != 0, 's');
    special(out, 5, (mode & SETGID) != 0, 's');
    special(out, 8, (mode & STICKY) != 0, 't');
    return new String(out);
  }

  private static void special(char[] out, int at, boolean set, char lower) {
    if (set) {
      out[at] = out[at] == '-' ? Character.toUpperCase(lower) : lower;
    }
  }
}
