package org.hpf.bench.experiments;

/**
 * Shvachko, "HDFS Scalability: The Limits to Growth": for {@code files} files holding
 * {@code blocks} blocks (lambda = blocks per file), the NameNode needs at least RAM >= F (1 +
 * lambda) objSize, and the namespace references at most SC <= F lambda r blockSize of disk.
 */
record ScalingModel(long files, long blocks, int objectBytes, double replication,
    long blockSize) {

  double lambda() {
    return files == 0 ? 0 : (double) blocks / files;
  }

  /** F (1 + lambda) objSize: one object per file and per block. */
  double ramBytes() {
    return files * (1 + lambda()) * objectBytes;
  }

  /** F lambda r blockSize: every block full and replicated r times. */
  double capacityBytes() {
    return files * lambda() * replication * blockSize;
  }

  /** Disk the namespace can reference per byte of NameNode RAM (Shvachko: ~10^6). */
  double capacityPerRamByte() {
    return capacityBytes() / ramBytes();
  }
}
