package org.hpf.cli;

import java.util.Locale;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.format.Manifest.PartInfo;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.ChangeResult;
import org.hpf.internal.write.WriterOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code hpf compact}: rewrites sparse part files and merges the index layers. */
@Command(name = "compact", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Reclaims the space of removed and replaced members, as one new generation:"
        + " rewrites every part file whose live fraction (the share of its entry bytes that"
        + " current members use) is below --min-live into new parts, drops the old ones, merges"
        + " all index layers into the base and the names segments into one.",
        "Readers that have the archive open keep reading the generation they opened."},
    footer = HpfSubcommand.PATHS_FOOTER)
final class CompactCommand extends HpfSubcommand {
  @Option(names = "--min-live", paramLabel = "F", defaultValue = "0.5",
      description = "Rewrite parts whose live fraction is below F, 0 to 1 (default"
          + " ${DEFAULT-VALUE}; 1 rewrites every part with any dead bytes, 0 none).")
  private double minLive;

  @Mixin
  private CacheOptions cache = new CacheOptions();

  @Parameters(index = "0", paramLabel = "<archive>", description = "The archive.")
  private String archive;

  @Override
  protected int run() throws Exception {
    if (!(minLive >= 0 && minLive <= 1)) {
      throw new ParameterException(spec.commandLine(), "--min-live must be between 0 and 1: "
          + minLive);
    }
    Path archivePath = resolve(archive);
    WriterOptions.Builder builder;
    try {
      builder = cache.writerOptions(configuration());
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    ChangeResult result;
    long before;
    try (Progress progress = progress("compact")) {
      builder.settings(s -> s.progress(progress));
      WriterOptions options = builder.operation(spec.name()).build();
      // The compactor reports phases only: the bytes it copies into new parts are counted here.
      // The storage is the one every writer gets (HDFS features included), wrapped.
      CountingStorage storage = new CountingStorage(HdfsIntegration.storageToChange(
          configuration(), archivePath, (short) options.layout().replication(),
          options.layout().partSize(), options.settings()), "part-", progress::bytes);
      ArchiveWriter writer = ArchiveWriter.open(configuration(), storage, options);
      try (writer) {
        reportRecovery(writer.recovery());
        before = writer.manifest().generation();
        progress.started(Progress.UNKNOWN, bytesToCopy(writer.manifest()));
        result = writer.compact(minLive);
      }
      result = result.withWarnings(writer.closeWarnings());
    }
    printWarnings(result.warnings());
    printHdfsWarnings(result.hdfs());
    if (result.generation() == before) {
      if (!quiet()) {
        out().printf(Locale.ROOT, "nothing to compact in %s: generation %d stays (no part's"
            + " live fraction below %s, one index layer)%n", archivePath, before, minLive);
      }
      return ExitCodes.OK;
    }
    if (!quiet()) {
      out().println("compacted " + archivePath + ": generation " + result.generation());
      out().printf(Locale.ROOT, "  parts          %d rewritten into %d%n", result.partsRemoved(),
          result.partsWritten());
      out().printf(Locale.ROOT, "  written        %s; index: %d bucket(s), %s%n",
          Units.bytes(result.bytesWritten()), result.bucketsRewritten(),
          Units.bytes(result.indexBytesWritten()));
      out().printf(Locale.ROOT, "  files          %s%n", Units.count(result.fileCount()));
      out().printf(Locale.ROOT, "  time           %s (%s)%n", Units.millis(result.millis()),
          Units.rate(result.bytesWritten(), result.millis()));
      printHdfs(out(), result.hdfs());
    }
    return ExitCodes.OK;
  }

  /** The live bytes of the parts the compaction will rewrite. */
  private long bytesToCopy(Manifest manifest) {
    long bytes = 0;
    for (PartInfo part : manifest.parts()) {
      if (part.liveFraction() < minLive) {
        bytes += part.liveBytes();
      }
    }
    return bytes;
  }
}
