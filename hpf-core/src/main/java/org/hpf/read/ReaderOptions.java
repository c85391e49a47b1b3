package org.hpf.read;

import org.hpf.format.NameHasher;

/** How an archive is read. */
public record ReaderOptions(NameHasher hasher) {
  public static ReaderOptions defaults() {
    return new ReaderOptions(NameHasher.MURMUR3_128);
  }
}
