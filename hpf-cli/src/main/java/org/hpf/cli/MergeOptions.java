package org.hpf.cli;

import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.hpf.ArchiveSettings;
import org.hpf.Compression;
import org.hpf.SymlinkPolicy;
import org.hpf.WriteSettings;
import org.hpf.internal.write.SourceRemoval;
import org.hpf.internal.write.WriterOptions;
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

  @Option(names = "--storage-policy", paramLabel = "POLICY", order = 14,
      converter = StoragePolicyConverter.class,
      description = {"HDFS storage policy of the part files this command merges: one of "
          + StoragePolicyConverter.NAMES + " (default: the archive directory's). LAZY_PERSIST"
          + " writes them to the DataNodes' memory (RAM_DISK) first; where the cluster has no"
          + " RAM_DISK, or refuses the policy, the parts get the directory's policy and a"
          + " warning says so. Ignored off HDFS.",
          "LAZY_PERSIST trades durability for speed. In HDFS's words: \"HDFS provides"
              + " best-effort persistence guarantees for Lazy Persist Writes. Rare data loss is"
              + " possible in the event of a node restart before replicas are persisted to"
              + " disk.\" HDFS does not tell a client when a replica has been persisted, so a"
              + " node restart shortly after this command returns can lose the new parts and"
              + " leave their members unreadable. Use it only for archives you can rebuild;"
              + " --delete-sources refuses it."})
  String storagePolicy;

  @Option(names = "--symlinks", paramLabel = "follow|skip|fail", order = 16,
      converter = SymlinkConverter.class,
      description = "Symbolic links below a source directory: skip them (default: each file "
          + "once, none from outside the tree), follow them (archive their targets; a loop "
          + "fails), or fail. Dangling links are never archived and always reported.")
  SymlinkPolicy symlinks;

  @Option(names = "--scratch-dir", paramLabel = "DIR", order = 15,
      description = "Local directory for the writer's sorted runs of names and index records,"
          + " about 100 bytes per member, and, with --mapreduce on the local job runner, for"
          + " the job's local files; removed when the command ends (default: the JVM's"
          + " java.io.tmpdir).")
  java.nio.file.Path scratchDir;

  @Option(names = "--allow-access-loss", order = 17,
      description = "Go ahead when the archive would take from users access they had. The"
          + " archive directory gets access no broader than every source allows; without this"
          + " option a create or append that leaves owners unable to read their own files is"
          + " refused, exit code 9.")
  boolean allowAccessLoss;

  /**
   * A writer's options: {@code conf}'s {@code hpf.*} keys, then these options and
   * {@code cache}'s over them; IllegalArgumentException for values the writer refuses.
   */
  WriterOptions.Builder builder(Configuration conf, CacheOptions cache) {
    WriteSettings.Builder settings = cache.settings(conf, storagePolicy);
    if (symlinks != null) {
      settings.symlinks(symlinks);
    }
    if (threads != null) {
      settings.threads(threads);
    }
    if (scratchDir != null) {
      settings.scratchDirectory(scratchDir);
    }
    if (compression != null) {
      settings.compression(compression);
    }
    settings.allowAccessLoss(allowAccessLoss);
    ArchiveSettings layout = ArchiveSettings.from(conf);
    if (partSize != null) {
      layout = layout.withPartSize(partSize);
    }
    if (replication != null) {
      layout = layout.withReplication(replication);
    }
    return WriterOptions.builder(layout, settings.build());
  }

  /**
   * For {@code --delete-sources}: IllegalArgumentException when these options (with
   * {@code conf}'s and {@code cache}'s) write parts that a DataNode restart can lose.
   */
  void requireDurableParts(Configuration conf, CacheOptions cache) {
    SourceRemoval.requireDurableParts(cache.settings(conf, storagePolicy).build());
  }

  /** HDFS's storage policy names, case-insensitive, checked before any work is done. */
  static final class StoragePolicyConverter implements ITypeConverter<String> {
    /** HDFS's names (HdfsConstants.*_STORAGE_POLICY_NAME); a constant for the help text. */
    static final String NAMES =
        "HOT, WARM, COLD, ONE_SSD, ALL_SSD, ALL_NVDIMM, LAZY_PERSIST, PROVIDED";
    static final List<String> POLICIES = List.of(NAMES.split(", "));

    @Override
    public String convert(String value) {
      String name = value.trim().toUpperCase(Locale.ROOT);
      if (!POLICIES.contains(name)) {
        throw new TypeConversionException("'" + value + "' is not an HDFS storage policy ("
            + NAMES + ")");
      }
      return name;
    }
  }

  /** An enum from its lower-case name, listing the names when the value is none of them. */
  abstract static class LowerCaseEnumConverter<E extends Enum<E>> implements ITypeConverter<E> {
    private final Class<E> type;

    LowerCaseEnumConverter(Class<E> type) {
      this.type = type;
    }

    @Override
    public E convert(String value) {
      try {
        return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException("'" + value + "' is not one of " + java.util.Arrays
            .stream(type.getEnumConstants()).map(c -> c.name().toLowerCase(Locale.ROOT))
            .collect(java.util.stream.Collectors.joining(", ")));
      }
    }
  }

  static final class SymlinkConverter extends LowerCaseEnumConverter<SymlinkPolicy> {
    SymlinkConverter() {
      super(SymlinkPolicy.class);
    }
  }

  /** {@code auto|lz4|none}, case-insensitive. */
  static final class CompressionConverter extends LowerCaseEnumConverter<Compression> {
    CompressionConverter() {
      super(Compression.class);
    }
  }
}
