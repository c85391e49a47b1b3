package org.hpf.cli;

import java.util.ArrayList;
import java.util.List;
import org.hpf.BatchRead;
import org.hpf.internal.read.HpfReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code hpf cat}: members' bytes to standard output, one after the other. */
@Command(name = "cat", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Writes the bytes of one or more members to standard output, in the order"
        + " given.",
        "Every name is looked up before a byte is written: a missing one fails the command"
            + " (exit code 3) with nothing written. Each member is checked against its checksum"
            + " before a byte of it is written; on a mismatch the command stops (exit code 4).",
        "Members are read as a batch: close ones with one read, several reads at once, in"
            + " memory bounded by hpf.read.batch.window.bytes."},
    footer = HpfSubcommand.PATHS_FOOTER)
final class CatCommand extends HpfSubcommand {
  @Parameters(index = "0", paramLabel = "<archive>", description = "The archive.")
  private String archive;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "<name>",
      description = "Members' names, as `hpf ls` prints them.")
  private List<String> names = new ArrayList<>();

  @Override
  protected int run() throws Exception {
    try (HpfReader reader = openArchive(archive)) {
      MembersToOutput.write(reader, names, BatchRead.from(configuration()), out());
    }
    return ExitCodes.OK;
  }
}
