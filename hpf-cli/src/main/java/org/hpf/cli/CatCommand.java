package org.hpf.cli;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.hpf.FileNotInArchiveException;
import org.hpf.internal.read.HpfReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code hpf cat}: members' bytes to standard output, one after the other. */
@Command(name = "cat", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Writes the bytes of one or more members to standard output, in the order"
        + " given.",
        "Every name is looked up before a byte is written: a missing one fails the command"
            + " (exit code 3) with nothing written. Each member is checked against its checksum"
            + " before a byte of it is written; on a mismatch the command stops (exit code 4)."},
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
      for (String name : names) {
        if (!reader.exists(name)) {
          throw new FileNotInArchiveException(reader.location(), name);
        }
      }
      for (String name : names) {
        try (InputStream in = reader.openVerified(name)) {
          in.transferTo(out());
        }
        out().flush();
        if (out().checkError()) {
          // Whoever read our output went away (`hpf cat a.hpf x | head`): stop quietly.
          return ExitCodes.OK;
        }
      }
    }
    return ExitCodes.OK;
  }
}
