package org.hpf.cli;

import java.io.FileNotFoundException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.fs.Path;
import org.hpf.ArchiveExistsException;
import org.hpf.write.ArchiveCreator;
import org.hpf.write.Compression;
import org.hpf.write.CreateResult;
import org.hpf.write.WriterOptions;
import picocli.CommandLine.Command;
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
  /** How often the progress line is printed. */
  static final long PROGRESS_INTERVAL_MILLIS = 2000;

  @Option(names = "--threads", paramLabel = "N",
      description = "Merge threads, each writing its own part file (default: cores, at least 2).")
  private Integer threads;

  @Option(names = "--part-size", paramLabel = "SIZE", converter = SizeConverter.class,
      description = "Size at which a part file rolls over to the next (default 1g).")
  private Long partSize;

  @Option(names = "--block-size", paramLabel = "SIZE", converter = SizeConverter.class,
      description = "Block size of the archive's files (default: the file system's).")
  private Long blockSize;

  @Option(names = "--replication", paramLabel = "N",
      description = "Replication of the archive's files (default: the file system's).")
  private Integer replication;

  @Option(names = "--compress", paramLabel = "auto|lz4|none", converter = CompressionConverter.class,
      description = "LZ4-compress members: auto (when it saves at least 1/8), lz4 (whenever it"
          + " saves anything) or none (default auto).")
  private Compression compression;

  @Option(names = "--bucket-capacity", paramLabel = "N",
      description = "Most names per index bucket (default: as many as fit one block).")
  private Integer bucketCapacity;

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
    WriterOptions.Builder builder = WriterOptions.builder();
    try {
      if (threads != null) {
        builder.threads(threads);
      }
      if (partSize != null) {
        builder.partSize(partSize);
      }
      if (blockSize != null) {
        builder.blockSize(blockSize);
      }
      if (replication != null) {
        builder.replication(replication);
      }
      if (bucketCapacity != null) {
        builder.bucketCapacity(bucketCapacity);
      }
      if (compression != null) {
        builder.compression(compression);
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
    // The writer checks this too, but only after it has listed every source.
    if (fileSystem(archive).exists(archive) && (fileSystem(archive).isFile(archive)
        || fileSystem(archive).listStatus(archive).length > 0)) {
      throw new ArchiveExistsException(archive.toString());
    }

    CreateResult result;
    try (ProgressReporter progress = new ProgressReporter(err(), PROGRESS_INTERVAL_MILLIS)) {
      if (!quiet()) {
        builder.progress(progress);
      }
      result = ArchiveCreator.create(configuration(), archive, sources, builder.build());
    }
    if (!quiet()) {
      printSummary(out(), result);
    }
    return ExitCodes.OK;
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
    out.printf(Locale.ROOT, "  time           %s (merge %s, index %s)%n",
        Units.millis(r.totalMillis()), Units.millis(r.mergeMillis()),
        Units.millis(r.indexMillis()));
    out.printf(Locale.ROOT, "  throughput     %s, %s files/s%n",
        Units.rate(r.originalBytes(), r.totalMillis()),
        r.totalMillis() <= 0 ? "-" : Units.count(r.files() * 1000 / r.totalMillis()));
  }

  /** {@code auto|lz4|none}, case-insensitive. */
  static final class CompressionConverter
      implements picocli.CommandLine.ITypeConverter<Compression> {
    @Override
    public Compression convert(String value) {
      try {
        return Compression.valueOf(value.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException(
            "'" + value + "' is not one of auto, lz4, none");
      }
    }
  }
}
