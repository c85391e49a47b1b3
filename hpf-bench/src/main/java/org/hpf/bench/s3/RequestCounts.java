package org.hpf.bench.s3;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.hpf.bench.s3.RequestKind.PriceTier;

/**
 * Requests an S3A client sent, by kind ({@link RequestKind} names), and {@code audited}, every
 * request its audit span saw. A stream adds its requests to its file system's statistics when
 * it closes: take a snapshot only once the streams of what is measured are closed.
 */
public record RequestCounts(Map<String, Long> byKind, long audited) {
  /** What {@code fs} (an S3A file system) has counted so far. */
  public static RequestCounts of(FileSystem fs) {
    Map<String, Long> counters = IOStatisticsSupport.snapshotIOStatistics(
        IOStatisticsSupport.retrieveIOStatistics(fs)).counters();
    Map<String, Long> byKind = new LinkedHashMap<>();
    for (RequestKind kind : RequestKind.values()) {
      byKind.put(kind.name(), counters.getOrDefault(kind.counter(), 0L));
    }
    return new RequestCounts(byKind, counters.getOrDefault(RequestKind.ALL_REQUESTS_COUNTER, 0L));
  }

  public static RequestCounts none() {
    Map<String, Long> byKind = new LinkedHashMap<>();
    for (RequestKind kind : RequestKind.values()) {
      byKind.put(kind.name(), 0L);
    }
    return new RequestCounts(byKind, 0);
  }

  /** The requests sent since {@code before}. */
  public RequestCounts minus(RequestCounts before) {
    return combine(before, -1);
  }

  public RequestCounts plus(RequestCounts other) {
    return combine(other, 1);
  }

  private RequestCounts combine(RequestCounts other, long sign) {
    Map<String, Long> byKindCombined = new LinkedHashMap<>();
    byKind.forEach((kind, n) -> byKindCombined.put(kind,
        n + sign * other.byKind.getOrDefault(kind, 0L)));
    return new RequestCounts(byKindCombined, audited + sign * other.audited);
  }

  public long of(RequestKind kind) {
    return byKind.getOrDefault(kind.name(), 0L);
  }

  /** Every request of a known kind. */
  public long total() {
    return byKind.values().stream().mapToLong(Long::longValue).sum();
  }

  /** The requests S3 bills in {@code tier}. */
  public long inTier(PriceTier tier) {
    long n = 0;
    for (RequestKind kind : RequestKind.values()) {
      if (kind.tier() == tier) {
        n += of(kind);
      }
    }
    return n;
  }

  /** "3 PUT, 1 LIST, 2 GET": the kinds sent, in {@link RequestKind} order; "none" if none. */
  public String describe() {
    StringJoiner text = new StringJoiner(", ");
    for (RequestKind kind : RequestKind.values()) {
      long n = of(kind);
      if (n != 0) {
        text.add(String.format(Locale.ROOT, "%,d %s", n, kind.name()));
      }
    }
    return text.length() == 0 ? "none" : text.toString();
  }
}
