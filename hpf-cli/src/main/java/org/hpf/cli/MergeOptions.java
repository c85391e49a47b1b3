package org.hpf.cli;

import java.util.Locale;
import org.hpf.write.Compression;
import org.hpf.write.WriterOptions;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** The options of commands that merge files into part files: create and append. */
final class MergeOptions {
  @Option(names = "--threads", paramLabel = "N", order = 10,
      description = "Merge threads, each writing its own part file (default: cores, at least 2).")
  Integer threads;

  @Option(names = "--part-size", paramLabel = "SIZE", converter = SizeConverter.class, order = 11,
      description = "Size at which a part file rolls over to the next (default: 1g for create,"
          + " the archive's for append).")
  Long partSize;

  @Option(names = "--replication", paramLabel = "N", order = 12,
      description = "Replication of the new files (default: the file system's).")
  Integer replication;

  @Option(names = "--compress", paramLabel = "auto|lz4|none", order = 13,
      converter = CompressionConverter.class,
      description = "LZ4-compress members: auto (when it saves at least 1/8), lz4 (whenever it"
          + " saves anything) or none (default auto).")
  Compression compression;

  /** Applies the options given; IllegalArgumentException for values the writer refuses. */
  WriterOptions.Builder applyTo(WriterOptions.Builder builder) {
    if (threads != null) {
      builder.threads(threads);
    }
    if (partSize != null) {
      builder.partSize(partSize);
    }
    if (replication != null) {
      builder.replication(replication);
    }
    if (compression != null) {
      builder.compression(compression);
    }
    return builder;
  }

  /** {@code auto|lz4|none}, case-insensitive. */
  static final class CompressionConverter implements ITypeConverter<Compression> {
    @Override
    public Compression convert(String value) {
      try {
        return Compression.valueOf(value.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException("'" + value + "' is not one of auto, lz4, none");
      }
    }
  }
}
