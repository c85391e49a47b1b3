package org.hpf.bench.experiments;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The datasets of the file-size experiment, which the NameNode model counts too: totals, block
 * size (the files' sizes follow it) and replication.
 */
public final class LayoutOptions {
  @Option(names = "--totals-mib", split = ",", defaultValue = "32,64",
      description = "Total data in MiB (default: ${DEFAULT-VALUE}).")
  public List<Integer> totalsMiB = new ArrayList<>(List.of(32, 64));

  @Option(names = "--block-size", defaultValue = "524288", paramLabel = "BYTES",
      description = "Block size (default: ${DEFAULT-VALUE}, 1/256 of Kalmukov et al.'s 128"
          + " MB); files near it are 0.8 of it, small files a tenth of those.")
  public long blockSize = 512 << 10;

  @Option(names = "--replication", defaultValue = "3")
  public short replication = 3;
}
