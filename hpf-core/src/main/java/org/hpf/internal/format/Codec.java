package org.hpf.internal.format;

/** How a member's bytes are stored: bits 0-1 of the record and entry flags. */
public enum Codec {
  RAW(0),
  LZ4(1);

  public static final int MASK = 0x3;
  private final int id;

  Codec(int id) {
    this.id = id;
  }

  public int id() {
    return id;
  }

  /** The codec in these flags, or null if the bits name none. */
  public static Codec ofFlags(int flags) {
    int id = flags & MASK;
    for (Codec codec : values()) {
      if (codec.id == id) {
        return codec;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
