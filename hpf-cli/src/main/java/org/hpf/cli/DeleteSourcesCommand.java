package org.hpf.cli;

import java.io.FileNotFoundException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.hpf.NoCommittedGenerationException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hpf delete-sources}: deletes archived files once they are verified in the archive. */
@Command(name = "delete-sources", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Deletes the files below source directories that the archive holds with the"
        + " same length and CRC32C (named as create names them), then the directories left"
        + " empty (never a source directory itself). Files that differ or are missing from the"
        + " archive are kept and named (exit code 1).",
        "A crash at any point leaves every file in place or verified in the archive; run the"
            + " same command again to finish."},
    footer = HpfSubcommand.PATHS_FOOTER)
final class DeleteSourcesCommand extends HpfSubcommand {
  @Option(names = "--dry-run", order = 1,
      description = "Verify and report what would be deleted and the NameNode objects freed;"
          + " delete nothing.")
  private boolean dryRun;

  @Option(names = "--threads", paramLabel = "N", order = 2,
      description = "Files verified at once (default: 8; on HDFS each costs a checksum call).")
  private int threads = 8;

  @Parameters(index = "0", paramLabel = "<archive>", description = "The archive.")
  private String archive;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "<source-dir>",
      description = "Source directories, as given to create or append.")
  private List<String> sources = new ArrayList<>();

  @Override
  protected int run() throws Exception {
    Path archivePath = resolve(archive);
    List<Path> roots = new ArrayList<>();
    for (String source : sources) {
      roots.add(resolve(source));
    }
    try {
      return SourceRemovals.run(this, archivePath, roots, dryRun, threads, null);
    } catch (FileNotFoundException | NoCommittedGenerationException e) {
      // The removal opens the archive before it looks at a source.
      throw whyNotOpened(archivePath, e);
    }
  }
}
