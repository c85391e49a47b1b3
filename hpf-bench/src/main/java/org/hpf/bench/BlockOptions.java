package org.hpf.bench;

import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The layout every system's files are stored with, mixed into the commands that compare systems
 * on one cluster ({@code @Mixin}) next to {@link ClusterOptions}.
 */
public final class BlockOptions {
  @Option(names = "--replication", description = "Replication of every system's files"
      + " (default: ${DEFAULT-VALUE}).")
  public short replication = 3;

  @Option(names = "--block-size", paramLabel = "BYTES", description = "Block size of every"
      + " system's files (default: ${DEFAULT-VALUE}).")
  public long blockSize = 128L << 20;

  /** Adds replication and block size to the settings a result records. */
  public void describe(Map<String, Object> settings) {
    settings.put("replication", replication);
    settings.put("blockSize", blockSize);
  }
}
