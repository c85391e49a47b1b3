package org.hpf.format;

/** The kinds of file an archive holds; the code is byte 4 of every file header. */
public enum FileKind {
  MANIFEST(1),
  DIRECTORY(2),
  INDEX(3),
  PART(4),
  NAMES(5),
  JOURNAL(6);

  private final int code;

  FileKind(int code) {
    this.code = code;
  }

  public int code() {
    return code;
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
