package org.hpf.internal.format;

/**
 * One entry of a names segment: a member that exists as of the segment's generation (with its
 * length and modification time, and in segments of version 2 where its entry is, so listings
 * need no lookups), or a deletion marker that hides the name in older segments.
 *
 * @param location where the member's entry is, or null: a deletion, or a member listed by a
 *     segment of version 1 (or merged from one), whose index record says where it is
 * @param access the member's access class (segments of version 3), or 0: not recorded, and
 *     for deletions
 */
public record NameEntry(String name, boolean deleted, long length, long mtimeMillis,
    EntryLocation location, int access) {
  public static final int OP_PRESENT = 1;
  public static final int OP_DELETED = 2;
  /** Version 2: a member whose location the segment does not carry. */
  public static final int OP_PRESENT_UNLOCATED = 3;

  public NameEntry(String name, boolean deleted, long length, long mtimeMillis) {
    this(name, deleted, length, mtimeMillis, null, 0);
  }

  public NameEntry(String name, boolean deleted, long length, long mtimeMillis,
      EntryLocation location) {
    this(name, deleted, length, mtimeMillis, location, 0);
  }

  public static NameEntry present(String name, long length, long mtimeMillis) {
    return new NameEntry(name, false, length, mtimeMillis, null, 0);
  }

  public static NameEntry present(String name, long length, long mtimeMillis,
      EntryLocation location) {
    return new NameEntry(name, false, length, mtimeMillis, location, 0);
  }

  public static NameEntry present(String name, long length, long mtimeMillis,
      EntryLocation location, int access) {
    return new NameEntry(name, false, length, mtimeMillis, location, access);
  }

  public static NameEntry deletion(String name) {
    return new NameEntry(name, true, 0, 0, null, 0);
  }

  /** The same entry without its location: what a segment of version 1 would say. */
  public NameEntry withoutLocation() {
    return location == null ? this
        : new NameEntry(name, deleted, length, mtimeMillis, null, access);
  }
}
