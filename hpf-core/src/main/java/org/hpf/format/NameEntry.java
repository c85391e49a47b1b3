package org.hpf.format;

/**
 * One entry of a names segment: a member that exists as of the segment's generation (with its
 * length and modification time, so listings need no lookups), or a deletion marker that hides
 * the name in older segments.
 */
public record NameEntry(String name, boolean deleted, long length, long mtimeMillis) {
  public static final int OP_PRESENT = 1;
  public static final int OP_DELETED = 2;

  public static NameEntry present(String name, long length, long mtimeMillis) {
    return new NameEntry(name, false, length, mtimeMillis);
  }

  public static NameEntry deletion(String name) {
    return new NameEntry(name, true, 0, 0);
  }
}
