package org.hpf.internal.format;

/**
 * The kinds of file an archive holds; the code is byte 4 of every file header. Each kind has its
 * own version (byte 5): the newest this code writes, and reads along with every older one.
 */
public enum FileKind {
  MANIFEST(1, 6),
  DIRECTORY(2, 1),
  INDEX(3, 3),
  PART(4, 2),
  NAMES(5, 3),
  JOURNAL(6, 4),
  /** Generation 1's manifest name, held while recovery removes a create that never committed. */
  REMOVAL(7, 1);

  private final int code;
  private final int version;

  FileKind(int code, int version) {
    this.code = code;
    this.version = version;
  }

  public int code() {
    return code;
  }

  /** The version this code writes files of this kind in: the newest it reads. */
  public int version() {
    return version;
  }

  /** The kind with this code, or null. */
  public static FileKind of(int code) {
    for (FileKind kind : values()) {
      if (kind.code == code) {
        return kind;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
