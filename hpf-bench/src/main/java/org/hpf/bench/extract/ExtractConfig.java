package org.hpf.bench.extract;

import java.io.File;
import picocli.CommandLine.Option;

/** Options of {@code hpf-bench extract}. */
public final class ExtractConfig {
  @Option(names = "--tree", paramLabel = "DIR", required = true,
      description = "A local directory tree to archive and extract (e.g. a source tree, or"
          + " /usr/share).")
  public File tree;

  @Option(names = "--runs", defaultValue = "3", paramLabel = "N",
      description = "Timed extractions per tool, alternating (default: ${DEFAULT-VALUE}).")
  public int runs = 3;

  @Option(names = "--work", paramLabel = "DIR",
      description = "Where the archive, the tar file and the extracted trees go: the disk"
          + " measured (default: work/ under --out).")
  public File work;

  @Option(names = "--hpf", paramLabel = "PATH",
      description = "The hpf command (default: bin/hpf of the source tree this bench runs"
          + " from).")
  public File hpf;

  @Option(names = {"-o", "--out"}, paramLabel = "DIR", defaultValue = "results/extract",
      description = "Where extract.json and extract.md go (default: ${DEFAULT-VALUE}).")
  public File out = new File("results/extract");

  /** Checks the settings; returns a message for the first bad one, or null. */
  public String problem() {
    if (runs < 1) {
      return "--runs must be positive";
    }
    if (!tree.isDirectory()) {
      return "--tree " + tree + " is not a directory";
    }
    return null;
  }
}
