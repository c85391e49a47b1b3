package org.hpf.cli;

import java.io.FileNotFoundException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.ArchiveExistsException;
import org.hpf.WriteSettings;
import org.hpf.internal.admin.OwnerSplit;
import org.hpf.internal.build.JobDriver;
import org.hpf.internal.hdfs.CachePinning;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.CreateResult;
import org.hpf.internal.write.Phase;
import org.hpf.internal.write.PhaseTimes;
import org.hpf.internal.write.WriterOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code hpf create}: packs files and directory trees into a new archive. */
@Command(name = "create", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Creates an archive from files and directories.",
        "A file becomes a member named by its file name; a directory adds every file below it,"
            + " named by its path relative to that directory (e.g. 2024/05/app.log)."},
    footer = HpfSubcommand.PATHS_FOOTER)
final class CreateCommand extends HpfSubcommand {
  @Mixin
  private MergeOptions merge = new MergeOptions();

  @Mixin
  private CacheOptions cache = new CacheOptions();

  @Option(names = "--block-size", paramLabel = "SIZE", converter = SizeConverter.class, order = 20,
      description = "Block size of the archive's files (default: the file system's); fixed for"
          + " the archive's life.")
  private Long blockSize;

  @Option(names = "--bucket-capacity", paramLabel = "N", order = 21,
      description = "Most names per index bucket (default: 65536, or fewer if that would not "
          + "fit one block).")
  private Integer bucketCapacity;

  @Option(names = "--delete-sources", order = 23,
      description = "After the commit, delete the source files verified in the archive (same"
          + " length and CRC32C) and the directories left empty, as delete-sources does"
          + " (sources must be directories; not with --storage-policy LAZY_PERSIST).")
  private boolean deleteSources;

  @Option(names = "--mapreduce", order = 22,
      description = "Build with a MapReduce job: map tasks merge the files in parallel where "
          + "they are (sources must be directories). Runs on the cluster that "
          + "mapreduce.framework.name names (yarn), else in this process with the local job "
          + "runner. See docs/CLUSTER.md.")
  private boolean mapreduce;

  @Option(names = "--split-by-owner", order = 24,
      description = "Make one archive per owner of the source files, named <owner>.hpf in the"
          + " directory given last, each holding only that owner's files and given to them"
          + " (the superuser's work: how an administrator archives many users' files, each"
          + " user keeping access to their own and nobody else's). See docs/SECURITY.md.")
  private boolean splitByOwner;

  @Parameters(arity = "1..*", paramLabel = "<source>... <archive>", hideParamSyntax = true,
      description = "Files or directories to archive, then the archive to create (a directory,"
          + " by convention named *.hpf; it must not exist or be empty).")
  private List<String> paths = new ArrayList<>();

  @Override
  protected int run() throws Exception {
    if (paths.size() < 2) {
      throw new ParameterException(spec.commandLine(),
          "give at least one source and then the archive to create");
    }
    WriterOptions.Builder builder;
    try {
      builder = merge.builder(configuration(), cache);
      if (deleteSources) {
        merge.requireDurableParts(configuration(), cache);
      }
      if (blockSize != null) {
        builder.layout(l -> l.withBlockSize(blockSize));
      }
      if (bucketCapacity != null) {
        builder.layout(l -> l.withBucketCapacity(bucketCapacity));
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }

    List<Path> sources = new ArrayList<>();
    for (String source : paths.subList(0, paths.size() - 1)) {
      Path path = resolve(source);
      if (!fileSystem(path).exists(path)) {
        throw new FileNotFoundException("source does not exist: " + path);
      }
      sources.add(path);
    }
    Path archive = resolve(paths.get(paths.size() - 1));
    if (splitByOwner) {
      return splitByOwner(sources, archive, builder);
    }
    if (mapreduce) {
      JobDriver.Result result;
      try (Progress progress = progress("create")) {
        builder.settings(s -> s.progress(progress));
        result = JobDriver.create(configuration(), sources, archive, builder.build());
      } catch (ArchiveExistsException e) {
        throw inAppendsOrder(e, sources, archive);
      }
      if (!quiet()) {
        JobSummary.print(out(), "created", result);
      }
      JobSummary.printWarnings(err(), result);
      printHdfsWarnings(result.hdfs());
      return removeSources(archive, sources);
    }
    CreateResult result;
    try (Progress progress = progress("create")) {
      builder.settings(s -> s.progress(progress));
      result = ArchiveCreator.create(configuration(), archive, sources, builder.build());
    } catch (ArchiveExistsException e) {
      throw inAppendsOrder(e, sources, archive);
    }
    printWarnings(result.warnings());
    printHdfsWarnings(result.hdfs());
    if (!quiet()) {
      printSummary(out(), result);
    }
    return removeSources(archive, sources);
  }

  /**
   * What to say when the archive to create exists (the writer refuses it before it walks any
   * source): where an existing archive was given first and an existing plain directory last,
   * that the arguments are in append's order; else {@code e}. Asked only then, since on an
   * object store each question costs requests.
   */
  private Exception inAppendsOrder(ArchiveExistsException e, List<Path> sources, Path archive)
      throws java.io.IOException {
    if (isArchive(sources.get(0)) && !isArchive(archive)) {
      List<String> swapped = new ArrayList<>(List.of("hpf", "append", paths.get(0)));
      swapped.addAll(paths.subList(1, paths.size()));
      return swappedArguments(paths.get(0), String.join(" ", swapped));
    }
    return e;
  }

  private int removeSources(Path archive, List<Path> sources) throws java.io.IOException {
    return deleteSources ? SourceRemovals.run(this, archive, sources, false, 8, null)
        : ExitCodes.OK;
  }

  /** One archive per owner in {@code directory}, each given to its owner once written. */
  private int splitByOwner(List<Path> sources, Path directory, WriterOptions.Builder builder)
      throws java.io.IOException {
    List<OwnerSplit.Planned> planned = OwnerSplit.plan(configuration(), sources, directory,
        builder.build().settings().symlinks());
    if (!quiet()) {
      out().println(planned.size() + (planned.size() == 1 ? " owner" : " owners") + ": "
          + planned.size() + (planned.size() == 1 ? " archive" : " archives") + " in "
          + directory);
    }
    int exit = ExitCodes.OK;
    // Each archive is pinned once it is its owner's, in the pool of that owner's the settings
    // name: the owner manages its directives, and nobody else lists them.
    WriteSettings asked = builder.build().settings();
    builder.settings(s -> s.pinIndex(false));
    for (OwnerSplit.Planned owned : planned) {
      builder.owner(owned.owner());
      FileSystem fs = fileSystem(owned.archive());
      try (Progress progress = progress("create " + owned.archive().getName())) {
        builder.settings(s -> s.progress(progress));
        if (mapreduce) {
          JobDriver.Result result = JobDriver.create(configuration(), owned.roots(),
              owned.archive(), builder.build());
          OwnerSplit.giveTo(configuration(), owned);
          result = result.withHdfs(CachePinning.pinWritten(fs, owned.archive(), asked,
              result.hdfs()));
          if (!quiet()) {
            JobSummary.print(out(), "created", result);
          }
          JobSummary.printWarnings(err(), result);
          printHdfsWarnings(result.hdfs());
        } else {
          CreateResult result = ArchiveCreator.create(configuration(), owned.archive(),
              owned.roots(), builder.build());
          OwnerSplit.giveTo(configuration(), owned);
          result = result.withHdfs(CachePinning.pinWritten(fs, owned.archive(), asked,
              result.hdfs()));
          printWarnings(result.warnings());
          printHdfsWarnings(result.hdfs());
          if (!quiet()) {
            printSummary(out(), result);
          }
        }
      }
      if (!quiet()) {
        out().println("  owner          " + owned.owner());
      }
      if (deleteSources) {
        exit = Math.max(exit, SourceRemovals.run(this, owned.archive(), owned.roots(), false, 8,
            owned.owner()));
      }
    }
    return exit;
  }

  static void printSummary(PrintStream out, CreateResult r) {
    out.println("created " + r.archive());
    out.printf(Locale.ROOT, "  files          %s%n", Units.count(r.files()));
    out.printf(Locale.ROOT, "  original       %s (%s bytes)%n", Units.bytes(r.originalBytes()),
        Units.count(r.originalBytes()));
    out.printf(Locale.ROOT, "  stored         %s (%s bytes, %.0f%% of original)%n",
        Units.bytes(r.storedBytes()), Units.count(r.storedBytes()),
        r.originalBytes() == 0 ? 100.0 : 100.0 * r.storedBytes() / r.originalBytes());
    out.printf(Locale.ROOT, "  parts          %d%n", r.parts());
    out.printf(Locale.ROOT, "  buckets        %d (directory depth %d)%n", r.buckets(),
        r.globalDepth());
    out.printf(Locale.ROOT, "  index          %.1f bytes per file (%s in all)%n",
        r.indexBytesPerFile(), Units.bytes(r.indexBytes()));
    out.printf(Locale.ROOT, "  function       %.2f bits per key%n", r.functionBitsPerKey());
    out.printf(Locale.ROOT, "  time           %s, by phase:%n", Units.millis(r.totalMillis()));
    printPhases(out, r.phases());
    out.printf(Locale.ROOT, "  throughput     %s, %s files/s%n",
        Units.rate(r.originalBytes(), r.totalMillis()),
        r.totalMillis() <= 0 ? "-" : Units.count(r.files() * 1000 / r.totalMillis()));
    printLinks(out, r.links());
    printHdfs(out, r.hdfs());
  }

  /** One line per phase of the create, each with its share of the wall time. */
  static void printPhases(PrintStream out, PhaseTimes phases) {
    for (Phase phase : Phase.values()) {
      double millis = phases.nanos(phase) / 1e6;
      out.printf(Locale.ROOT, "    %-15s%s (%.1f%%)%n", phase.label(), Units.millis(millis),
          phases.wallNanos() == 0 ? 0.0 : 100.0 * phases.nanos(phase) / phases.wallNanos());
    }
  }
}
