package org.hpf.cli;

import java.io.FileNotFoundException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.fs.Path;
import org.hpf.ExistingNames;
import org.hpf.NoCommittedGenerationException;
import org.hpf.internal.build.JobDriver;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.ChangeResult;
import org.hpf.internal.write.WriterOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code hpf append}: adds files and directory trees to an existing archive. */
@Command(name = "append", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Adds files and directories to an existing archive, as one new generation.",
        "Names are formed as by create. A name the archive already has fails the whole append"
            + " (exit code 6) unless --replace, which makes the new bytes win.",
        "Readers that have the archive open keep reading the generation they opened."},
    footer = HpfSubcommand.PATHS_FOOTER)
final class AppendCommand extends HpfSubcommand {
  @Option(names = "--replace", order = 1,
      description = "Replace members whose names the archive already has.")
  private boolean replace;

  @Option(names = "--skip-existing", order = 2,
      description = "Leave members whose sources have the same length and CRC32C as they are"
          + " (how to finish an append that was interrupted); a name whose source differs still"
          + " fails the append. Not with --replace.")
  private boolean skipExisting;

  @Mixin
  private MergeOptions merge = new MergeOptions();

  @Mixin
  private CacheOptions cache = new CacheOptions();

  @Option(names = "--delete-sources", order = 23,
      description = "After the commit, delete the source files verified in the archive (same"
          + " length and CRC32C) and the directories left empty, as delete-sources does"
          + " (sources must be directories; not with --storage-policy LAZY_PERSIST).")
  private boolean deleteSources;

  @Option(names = "--mapreduce", order = 2,
      description = "Add with a MapReduce job, as create --mapreduce does (sources must be "
          + "directories; not with --replace).")
  private boolean mapreduce;

  @Parameters(index = "0", paramLabel = "<archive>", description = "The archive to add to.")
  private String archive;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "<source>",
      description = "Files or directories to add.")
  private List<String> sources = new ArrayList<>();

  @Override
  protected int run() throws Exception {
    WriterOptions.Builder builder;
    try {
      builder = merge.builder(configuration(), cache);
      if (deleteSources) {
        merge.requireDurableParts(configuration(), cache);
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    Path archivePath = resolve(archive);
    List<Path> roots = new ArrayList<>();
    for (String source : sources) {
      Path path = resolve(source);
      if (!fileSystem(path).exists(path)) {
        throw new FileNotFoundException("source does not exist: " + path);
      }
      roots.add(path);
    }
    if (mapreduce) {
      if (replace || skipExisting) {
        throw new ParameterException(spec.commandLine(),
            "--replace and --skip-existing are not supported with --mapreduce");
      }
      JobDriver.Result result;
      try (Progress progress = progress("append")) {
        builder.settings(s -> s.progress(progress));
        result = JobDriver.append(configuration(), roots, archivePath, builder.build());
      } catch (FileNotFoundException | NoCommittedGenerationException e) {
        throw inCreatesOrder(e);
      }
      if (!quiet()) {
        JobSummary.print(out(), "appended to", result);
      }
      JobSummary.printWarnings(err(), result);
      printHdfsWarnings(result.hdfs());
      return removeSources(archivePath, roots);
    }
    ChangeResult result;
    try (Progress progress = progress("append")) {
      builder.settings(s -> s.progress(progress));
      ArchiveWriter writer;
      try {
        writer = ArchiveWriter.open(configuration(), archivePath,
            builder.operation(spec.name()).build());
      } catch (FileNotFoundException | NoCommittedGenerationException e) {
        throw inCreatesOrder(e);
      }
      try (writer) {
        reportRecovery(writer.recovery());
        result = writer.append(roots, existingNames());
      }
      result = result.withWarnings(writer.closeWarnings());
    }
    printWarnings(result.warnings());
    printHdfsWarnings(result.hdfs());
    if (replace && result.filesReplaced() == 0 && result.filesAdded() > 0) {
      // Likely a member named otherwise than meant: a file source is named by its file name.
      printWarnings(List.of("--replace replaced nothing: all " + result.filesAdded()
          + " name(s) were new. A file source is named by its file name alone, a directory's"
          + " files by their paths below it; 'hpf ls' shows the names"));
    }
    if (!quiet()) {
      printSummary(out(), archivePath, result);
    }
    return removeSources(archivePath, roots);
  }

  /**
   * What to say when the archive to append to is none (the writer refuses it before it reads
   * any source): where the first argument is no archive and the last one is, that the arguments
   * are in create's order; else {@code e}. Asked only then, since on an object store each
   * question costs requests.
   */
  private Exception inCreatesOrder(java.io.IOException e) throws java.io.IOException {
    String last = sources.get(sources.size() - 1);
    if (!isArchive(resolve(archive)) && isArchive(resolve(last))) {
      List<String> swapped = new ArrayList<>(List.of("hpf", "append", last, archive));
      swapped.addAll(sources.subList(0, sources.size() - 1));
      return swappedArguments(last, String.join(" ", swapped));
    }
    return e;
  }

  private int removeSources(Path archive, List<Path> sources) throws java.io.IOException {
    return deleteSources ? SourceRemovals.run(this, archive, sources, false, 8, null)
        : ExitCodes.OK;
  }

  private ExistingNames existingNames() {
    if (replace && skipExisting) {
      throw new ParameterException(spec.commandLine(),
          "--replace and --skip-existing exclude each other");
    }
    return replace ? ExistingNames.REPLACE
        : skipExisting ? ExistingNames.SKIP_IDENTICAL : ExistingNames.FAIL;
  }

  static void printSummary(PrintStream out, Path archive, ChangeResult r) {
    out.println("appended to " + archive + ": generation " + r.generation());
    out.printf(Locale.ROOT, "  files          %s added, %s replaced%s; %s in the archive%n",
        Units.count(r.filesAdded()), Units.count(r.filesReplaced()),
        r.filesSkipped() > 0 ? ", " + Units.count(r.filesSkipped()) + " skipped (identical)" : "",
        Units.count(r.fileCount()));
    out.printf(Locale.ROOT, "  written        %s in %d part(s); index: %d bucket(s), %s%n",
        Units.bytes(r.bytesWritten()), r.partsWritten(), r.bucketsRewritten(),
        Units.bytes(r.indexBytesWritten()));
    printTime(out, r);
  }

  /** The time and throughput lines of a change's summary. */
  static void printTime(PrintStream out, ChangeResult r) {
    long files = r.filesAdded() + r.filesReplaced();
    out.printf(Locale.ROOT, "  time           %s%n", Units.millis(r.millis()));
    out.printf(Locale.ROOT, "  throughput     %s, %s files/s%n",
        Units.rate(r.bytesWritten(), r.millis()),
        r.millis() <= 0 ? "-" : Units.count(files * 1000 / r.millis()));
    printLinks(out, r.links());
    printHdfs(out, r.hdfs());
  }
}
