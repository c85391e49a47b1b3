package org.hpf.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hpf.internal.hdfs.HdfsOptions;
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
      description = "HDFS cache pool of the directives (default: hpf; created if missing and"
          + " allowed). Use the same pool for every command on an archive.")
  String pool;

  @Option(names = "--cache-ttl", paramLabel = "TIME", order = 42,
      converter = DurationConverter.class,
      description = "HDFS: directives expire this long after they are added, e.g. 30m, 12h, 7d"
          + " (default: never).")
  Duration ttl;

  /** The pool the options name, or the default one. */
  String pool() {
    return pool != null ? pool : HdfsOptions.defaults().cachePool();
  }

  /**
   * The HDFS options of a writer: these cache options and the parts' storage policy (null for
   * the directory's). IllegalArgumentException for values HdfsOptions refuses.
   */
  HdfsOptions hdfsOptions(String storagePolicy) {
    HdfsOptions.Builder builder = HdfsOptions.builder()
        .partStoragePolicy(storagePolicy)
        .pinIndex(!noCache)
        .cacheTtl(ttl);
    if (pool != null) {
      builder.cachePool(pool);
    }
    return builder.build();
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
