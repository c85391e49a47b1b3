package org.hpf.read;

import org.hpf.format.NameHasher;

/**
 * How an archive is read.
 *
 * @param openAllFiles open every index and part file of the generation when the reader opens
 *     (one NameNode RPC each on HDFS), so that no get ever asks the NameNode; by default each
 *     file is opened by the first get that needs it
 */
public record ReaderOptions(NameHasher hasher, boolean openAllFiles) {
  public ReaderOptions(NameHasher hasher) {
    this(hasher, false);
  }

  public static ReaderOptions defaults() {
    return new ReaderOptions(NameHasher.MURMUR3_128);
  }

  public ReaderOptions withOpenAllFiles(boolean value) {
    return new ReaderOptions(hasher, value);
  }
}
