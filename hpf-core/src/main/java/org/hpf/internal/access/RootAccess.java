package org.hpf.internal.access;

/**
 * The owner, group and permission bits of an archive's directory: who may read the archive,
 * since every file in it is reached through it.
 *
 * @param mode the permission bits (12 bits)
 */
public record RootAccess(String owner, String group, int mode) {
  /** Who may read the archive's files: pass through its directory and list it. */
  public Readers readers() {
    return Readers.ofDirectory(owner, group, mode).and(Readers.ofFile(owner, group, mode));
  }

  /** This access with the permission bits {@code bits} cleared. */
  public RootAccess without(int bits) {
    return new RootAccess(owner, group, mode & ~bits);
  }

  @Override
  public String toString() {
    return String.format("%s:%s %04o", owner, group, mode);
  }
}
