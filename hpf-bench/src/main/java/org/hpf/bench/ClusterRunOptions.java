package org.hpf.bench;

import java.io.File;
import picocli.CommandLine.Option;

/** {@link RunOptions} of the commands that store every system's files with one layout. */
public abstract class ClusterRunOptions extends RunOptions {
  @Option(names = "--replication", description = "Replication of every system's files"
      + " (default: ${DEFAULT-VALUE}).")
  public short replication = 3;

  @Option(names = "--block-size", paramLabel = "BYTES", description = "Block size of every"
      + " system's files (default: ${DEFAULT-VALUE}).")
  public long blockSize = 128L << 20;

  protected ClusterRunOptions(File out) {
    super(out);
  }
}
