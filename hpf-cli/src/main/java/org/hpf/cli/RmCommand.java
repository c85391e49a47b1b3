package org.hpf.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.ChangeResult;
import org.hpf.internal.write.WriterOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code hpf rm}: removes members from an archive. */
@Command(name = "rm", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Removes members from an archive, as one new generation; all or nothing: a"
        + " name the archive does not have fails the whole command (exit code 3).",
        "The members' bytes stay in their part files until `hpf compact` rewrites them."},
    footer = HpfSubcommand.PATHS_FOOTER)
final class RmCommand extends HpfSubcommand {
  @Mixin
  private CacheOptions cache = new CacheOptions();

  @Parameters(index = "0", paramLabel = "<archive>", description = "The archive.")
  private String archive;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "<name>",
      description = "Names of the members to remove, as `hpf ls` prints them.")
  private List<String> names = new ArrayList<>();

  @Override
  protected int run() throws Exception {
    Path archivePath = resolve(archive);
    ChangeResult result;
    WriterOptions options;
    try {
      options = cache.writerOptions(configuration()).operation(spec.name()).build();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    ArchiveWriter writer = ArchiveWriter.open(configuration(), archivePath, options);
    try (writer) {
      reportRecovery(writer.recovery());
      result = writer.delete(names);
    }
    result = result.withWarnings(writer.closeWarnings());
    printWarnings(result.warnings());
    printHdfsWarnings(result.hdfs());
    if (!quiet()) {
      out().printf(Locale.ROOT, "removed %s file(s) from %s: generation %d, %s file(s) left,"
              + " %s%n", Units.count(result.filesDeleted()), archivePath, result.generation(),
          Units.count(result.fileCount()), Units.millis(result.millis()));
      printHdfs(out(), result.hdfs());
    }
    return ExitCodes.OK;
  }
}
