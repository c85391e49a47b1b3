package org.hpf.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.BatchRead;
import org.hpf.internal.read.HpfReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code hpf get}: one member's bytes, to a file or to stdout; several members', to stdout. */
@Command(name = "get", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Writes one member's bytes to a file or to standard output; several"
        + " members' to standard output, one after the other (every name is looked up before a"
        + " byte is written: a missing one fails the command, exit code 3, with nothing"
        + " written).",
        "The bytes are checked against the member's checksum; a file that fails the check is"
            + " removed (exit code 4)."},
    footer = HpfSubcommand.PATHS_FOOTER)
final class GetCommand extends HpfSubcommand {
  @Parameters(index = "0", paramLabel = "<archive>", description = "The archive.")
  private String archive;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "<name>",
      description = "The member's name, as `hpf ls` prints it (e.g. 2024/05/app.log); several"
          + " names: their bytes one after the other on standard output, as `hpf cat`.")
  private List<String> names = new ArrayList<>();

  @Option(names = {"-o", "--output"}, paramLabel = "<file>|-",
      description = "Where to write the bytes; '-' or no -o: standard output.")
  private String output;

  @Option(names = "--force", description = "Overwrite the output file if it exists.")
  private boolean force;

  @Override
  protected int run() throws Exception {
    boolean toStdout = output == null || output.equals("-");
    if (names.size() > 1 && !toStdout) {
      throw new ParameterException(spec.commandLine(), "-o <file> takes one name; several"
          + " go to standard output, or to files with `hpf extract`");
    }
    String name = names.get(0);
    try (HpfReader reader = openArchive(archive)) {
      if (names.size() > 1) {
        MembersToOutput.write(reader, names, BatchRead.from(configuration()), out());
        return ExitCodes.OK;
      }
      if (toStdout) {
        try (InputStream in = reader.openVerified(name)) {
          in.transferTo(out());
        }
        out().flush();
        return ExitCodes.OK;
      }
      Path target = resolve(output);
      FileSystem fs = fileSystem(target);
      if (fs.isDirectory(target)) {
        throw new ParameterException(spec.commandLine(), "-o: " + target + " is a directory");
      }
      if (!force && fs.exists(target)) {
        throw new FileAlreadyExistsException(target + " exists; use --force to overwrite it");
      }
      Path parent = target.getParent();
      if (parent != null && !fs.isDirectory(parent)) {
        throw new FileNotFoundException("-o: no such directory: " + parent);
      }
      try (InputStream in = reader.open(name)) {
        copy(in, fs, target);
      }
      return ExitCodes.OK;
    }
  }

  /** Writes the file; removes it again if the member's bytes fail (e.g. their checksum). */
  private void copy(InputStream in, FileSystem fs, Path target) throws IOException {
    boolean done = false;
    try (OutputStream file = fs.create(target, force)) {
      in.transferTo(file);
      done = true;
    } finally {
      if (!done) {
        fs.delete(target, false);
      }
    }
  }
}
