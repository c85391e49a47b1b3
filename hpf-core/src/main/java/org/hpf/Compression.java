package org.hpf;

/** When the writer stores a member LZ4-compressed. */
public enum Compression {
  /** Compress when it saves at least 1/8 of the member's size (the default). */
  AUTO,
  /** Compress whenever the result is smaller at all. */
  LZ4,
  /** Store every member raw. */
  NONE
}
