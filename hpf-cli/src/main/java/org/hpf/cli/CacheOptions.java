package org.hpf.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.hpf.ArchiveSettings;
import org.hpf.WriteSettings;
import org.hpf.WriteSettings;
import org.hpf.internal.write.WriterOptions;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The cache-pinning options of the commands that commit a generation (create, append, rm,
 * compact) and of {@code hpf cache}. HDFS only; elsewhere they are ignored and the summary says
 * pinning was skipped.
 */
final class CacheOptions {
  @Option(names = "--no-cache", order = 40,
      description = "HDFS: do not pin the new generation's index files in the DataNodes' memory"
          + " (by default a cache directive per index file, directory and manifest).")
  boolean noCache;

  @Option(names = "--cache-pool", paramLabel = "POOL", order = 41,
      description = "HDFS cache pool of the directives (default: hpf-{owner}, where {owner}"
          + " is the archive's owner; created, theirs and of mode 0700, if missing and allowed)."
          + " Use the same pool for every command on an archive.")
  String pool;

  @Option(names = "--cache-ttl", paramLabel = "TIME", order = 42,
      converter = DurationConverter.class,
      description = "HDFS: directives expire this long after they are added, e.g. 30m, 12h, 7d"
          + " (default: never).")
  Duration ttl;

  /** The pool the options name, else the one {@code conf}'s keys name, else the default. */
  String pool(Configuration conf) {
    return pool != null ? pool : WriteSettings.from(conf).cachePool();
  }

  /**
   * A writer's settings: {@code conf}'s {@code hpf.write.*} and {@code hpf.hdfs.*} keys, then
   * these cache options and the parts' storage policy (null: as the keys say) over them.
   * IllegalArgumentException for values the settings refuse.
   */
  WriteSettings.Builder settings(Configuration conf, String storagePolicy) {
    WriteSettings.Builder settings = WriteSettings.builder(conf);
    if (storagePolicy != null) {
      settings.partStoragePolicy(storagePolicy);
    }
    if (noCache) {
      settings.pinIndex(false);
    }
    if (ttl != null) {
      settings.cacheTtl(ttl);
    }
    if (pool != null) {
      settings.cachePool(pool);
    }
    return settings;
  }

  /** A writer's options: {@code conf}'s layout keys and {@link #settings} without a policy. */
  WriterOptions.Builder writerOptions(Configuration conf) {
    return WriterOptions.builder(ArchiveSettings.from(conf), settings(conf, null).build());
  }

  /** {@code 90s}, {@code 30m}, {@code 12h}, {@code 7d}, or ISO-8601 ({@code PT1H30M}). */
  static final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern SHORT = Pattern.compile("(\\d+)([smhd])");

    @Override
    public Duration convert(String value) {
      Matcher m = SHORT.matcher(value.trim().toLowerCase(Locale.ROOT));
      try {
        Duration d;
        if (m.matches()) {
          long n = Long.parseLong(m.group(1));
          d = switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
          };
        } else {
          d = Duration.parse(value.trim().toUpperCase(Locale.ROOT));
        }
        if (d.isNegative() || d.isZero()) {
          throw new TypeConversionException("'" + value + "' is not a positive time");
        }
        return d;
      } catch (ArithmeticException | java.time.format.DateTimeParseException e) {
        throw new TypeConversionException("'" + value + "' is not a time such as 30m, 12h or"
            + " 7d");
      }
    }
  }
}
