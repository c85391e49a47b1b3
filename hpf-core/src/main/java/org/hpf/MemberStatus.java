package org.hpf;

import java.util.Objects;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * What an archive knows about one member without reading its bytes.
 *
 * <p>Archives of format 4 and later record each member's owner, group and mode bits
 * ({@link MemberAccess}). A member of an archive written before format 4 reports what readers
 * always reported: the owner and group of the archive's directory and mode 0444.
 *
 * @param name the member's name, relative to the archive ({@code dir/file.txt})
 * @param length the member's length in bytes, as it was added (before any compression)
 * @param modificationTime milliseconds since the epoch, or {@link #UNKNOWN_TIME} when the
 *     member was added without one
 * @param access its owner, group and mode bits, as recorded (see above for older archives)
 */
public record MemberStatus(String name, long length, long modificationTime,
    MemberAccess access) {
  /** The modification time of a member added without one. */
  public static final long UNKNOWN_TIME = Long.MIN_VALUE;

  /**
   * Checks the fields.
   *
   * @param name the member's name
   * @param length its length in bytes
   * @param modificationTime its time, or {@link #UNKNOWN_TIME}
   * @param access its owner, group and mode
   * @throws NullPointerException if {@code name} or {@code access} is null
   * @throws IllegalArgumentException if {@code length} is negative
   */
  public MemberStatus {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(access, "access");
    if (length < 0) {
      throw new IllegalArgumentException("negative length " + length + " of '" + name + "'");
    }
  }

  /**
   * Whether the member has a modification time.
   *
   * @return false when it was added without one
   */
  public boolean hasModificationTime() {
    return modificationTime != UNKNOWN_TIME;
  }

  /**
   * The member's owner, as recorded (never null).
   *
   * @return the owner's name
   */
  public String owner() {
    return access.owner();
  }

  /**
   * The member's group, as recorded (never null).
   *
   * @return the group's name
   */
  public String group() {
    return access.group();
  }

  /**
   * The member's permission as recorded, write bits included: its rwx bits and sticky bit (a
   * Hadoop permission holds no setuid or setgid bit: see {@link #mode()}).
   *
   * @return a new permission
   */
  public FsPermission permission() {
    return access.permission();
  }

  /**
   * The member's twelve mode bits as recorded, setuid and setgid included
   * ({@link MemberAccess#mode()}).
   *
   * @return 0 to {@code 07777}
   */
  public int mode() {
    return access.mode();
  }
}
