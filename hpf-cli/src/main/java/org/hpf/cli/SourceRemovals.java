package org.hpf.cli;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.write.SourceRemoval;
import picocli.CommandLine.ParameterException;

/** Runs a source removal for a command and prints what it did. */
final class SourceRemovals {
  private SourceRemovals() {}

  /**
   * @param owner only this owner's files, or null for all
   * @return the exit code: OK, or ERROR when files were kept
   */
  static int run(HpfSubcommand command, Path archive, List<Path> roots, boolean dryRun,
      int threads, String owner) throws IOException {
    SourceRemoval.Options options;
    try {
      options = new SourceRemoval.Options(dryRun, threads, owner);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(command.spec.commandLine(), e.getMessage());
    }
    SourceRemoval.Result r = SourceRemoval.run(command.configuration(), archive, roots, options);
    if (!command.quiet()) {
      command.out().printf(Locale.ROOT, "%s %s file(s) (%s) verified in %s, %s director%s;"
              + " NameNode objects freed: %s%n", r.dryRun() ? "would delete" : "deleted",
          Units.count(r.filesDeleted()), Units.bytes(r.bytesDeleted()), archive,
          Units.count(r.directoriesRemoved()), r.directoriesRemoved() == 1 ? "y" : "ies",
          Units.count(r.namenodeObjectsFreed()));
    }
    if (r.filesKept() == 0) {
      return ExitCodes.OK;
    }
    command.err().println("hpf: kept " + Units.count(r.filesKept())
        + " file(s), each for the reason given:");
    for (String kept : r.firstKept()) {
      command.err().println("  " + kept);
    }
    if (r.filesKept() > r.firstKept().size()) {
      command.err().println("  ...");
    }
    return ExitCodes.ERROR;
  }
}
