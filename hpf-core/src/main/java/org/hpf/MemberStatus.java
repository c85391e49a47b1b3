package org.hpf;

/**
 * What an archive knows about one member without reading its bytes.
 *
 * @param name the member's name, relative to the archive ({@code dir/file.txt})
 * @param length the member's length in bytes, as it was added (before any compression)
 * @param modificationTime milliseconds since the epoch, or {@link #UNKNOWN_TIME} when the
 *     member was added without one
 */
public record MemberStatus(String name, long length, long modificationTime) {
  /** The modification time of a member added without one. */
  public static final long UNKNOWN_TIME = Long.MIN_VALUE;

  /**
   * Checks the fields.
   *
   * @param name the member's name
   * @param length its length in bytes
   * @param modificationTime its time, or {@link #UNKNOWN_TIME}
   * @throws NullPointerException if {@code name} is null
   * @throws IllegalArgumentException if {@code length} is negative
   */
  public MemberStatus {
    java.util.Objects.requireNonNull(name, "name");
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
}
