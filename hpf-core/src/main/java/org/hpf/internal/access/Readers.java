package org.hpf.internal.access;

/**
 * A lower bound of who may read a file (or pass through a directory), from permission bits
 * alone: everyone, the members of one group, one user. Group membership is not known to a
 * client, so a user is never assumed to be in a group: what is not certain is not counted.
 *
 * <p>HDFS and POSIX check exactly one class: the owner's bits for the owner, the group's for
 * other members of the group, the other bits for the rest. So "everyone" needs all three
 * classes allowed, and "the group" needs the owner's bits too (the owner may be a member).
 *
 * @param everyone every user may
 * @param group the group whose members may, or null
 * @param owner the user who may, or null
 */
public record Readers(boolean everyone, String group, String owner) {
  /** Nobody is known to. */
  public static final Readers NOBODY = new Readers(false, null, null);
  /** Everyone may. */
  public static final Readers EVERYONE = new Readers(true, null, null);

  /** Read bits of user, group and other. */
  private static final int READ = 0444;
  /** Execute (traverse) bits of user, group and other. */
  private static final int TRAVERSE = 0111;

  /** Who may read a file of this owner, group and mode. */
  public static Readers ofFile(String owner, String group, int mode) {
    return of(owner, group, mode, READ);
  }

  /** Who may pass through (look up names in) a directory of this owner, group and mode. */
  public static Readers ofDirectory(String owner, String group, int mode) {
    return of(owner, group, mode, TRAVERSE);
  }

  private static Readers of(String owner, String group, int mode, int bits) {
    int user = bits & 0700;
    int grp = bits & 070;
    int other = bits & 07;
    boolean ownerMay = (mode & user) != 0;
    boolean groupMay = ownerMay && (mode & grp) != 0;
    boolean everyone = groupMay && (mode & other) != 0;
    return everyone ? EVERYONE
        : new Readers(false, groupMay ? group : null, ownerMay ? owner : null);
  }

  /** True when every member of {@code g} may. */
  public boolean admitsGroup(String g) {
    return everyone || (g != null && g.equals(group));
  }

  /** True when {@code user} may. */
  public boolean admitsUser(String user) {
    return everyone || (user != null && user.equals(owner));
  }

  /**
   * Who may do both: read through a directory that admits {@code this}, a file or directory that
   * admits {@code inner}.
   */
  public Readers and(Readers inner) {
    if (everyone) {
      return inner;
    }
    if (inner.everyone) {
      return this;
    }
    return new Readers(false, inner.admitsGroup(group) ? group : null,
        inner.admitsUser(owner) ? owner : null);
  }

  /** True when every reader {@code other} counts is counted here too. */
  public boolean covers(Readers other) {
    if (everyone) {
      return true;
    }
    return !other.everyone && (other.group == null || other.group.equals(group))
        && (other.owner == null || other.owner.equals(owner));
  }

  @Override
  public String toString() {
    if (everyone) {
      return "everyone";
    }
    if (group == null && owner == null) {
      return "nobody";
    }
    return (owner != null ? "user " + owner : "")
        + (owner != null && group != null ? " and " : "")
        + (group != null ? "group " + group : "");
  }
}
