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
 * it closes: take a snapshot only once the streams of what is measured are closed. {@code
 * atServer}: the requests the local server answered meanwhile, by the same kind names (empty
 * where no server of the run's counted them).
 */
public record RequestCounts(Map<String, Long> byKind, long audited, Map<String, Long> atServer) {
  public RequestCounts {
    atServer = atServer == null ? Map.of() : atServer;
  }

  /** What {@code fs} (an S3A file system) has counted so far. */
  public static RequestCounts of(FileSystem fs) {
    Map<String, Long> counters = IOStatisticsSupport.snapshotIOStatistics(
        IOStatisticsSupport.retrieveIOStatistics(fs)).counters();
    Map<String, Long> byKind = new LinkedHashMap<>();
    for (RequestKind kind : RequestKind.values()) {
      byKind.put(kind.name(), counters.getOrDefault(kind.counter(), 0L));
    }
    return new RequestCounts(byKind, counters.getOrDefault(RequestKind.ALL_REQUESTS_COUNTER, 0L),
        Map.of());
  }

  public static RequestCounts none() {
    Map<String, Long> byKind = new LinkedHashMap<>();
    for (RequestKind kind : RequestKind.values()) {
      byKind.put(kind.name(), 0L);
    }
    return new RequestCounts(byKind, 0, Map.of());
  }

  /** The requests sent since {@code before}. */
  public RequestCounts minus(RequestCounts before) {
    return combine(before, -1);
  }

  public RequestCounts plus(RequestCounts other) {
    return combine(other, 1);
  }

  /** These counts, with {@code answered} as the server's. */
  public RequestCounts withAtServer(Map<String, Long> answered) {
    return new RequestCounts(byKind, audited, answered);
  }

  private RequestCounts combine(RequestCounts other, long sign) {
    return new RequestCounts(combine(byKind, other.byKind, sign), audited + sign * other.audited,
        combine(atServer, other.atServer, sign));
  }

  private static Map<String, Long> combine(Map<String, Long> a, Map<String, Long> b,
      long sign) {
    Map<String, Long> combined = new LinkedHashMap<>(a);
    b.forEach((kind, n) -> combined.merge(kind, sign * n, Long::sum));
    return combined;
  }

  /** Every request the server answered, of any kind. */
  public long totalAtServer() {
    return atServer.values().stream().mapToLong(Long::longValue).sum();
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
    return describe(byKind);
  }

  /** As {@link #describe()}, of the requests the server answered. */
  public String describeAtServer() {
    return describe(atServer);
  }

  /** The kinds of {@code counts} in {@link RequestKind} order, then any others. */
  private static String describe(Map<String, Long> counts) {
    StringJoiner text = new StringJoiner(", ");
    Map<String, Long> left = new LinkedHashMap<>(counts);
    for (RequestKind kind : RequestKind.values()) {
      long n = left.getOrDefault(kind.name(), 0L);
      left.remove(kind.name());
      if (n != 0) {
        text.add(String.format(Locale.ROOT, "%,d %s", n, kind.name()));
      }
    }
    left.forEach((kind, n) -> {
      if (n != 0) {
        text.add(String.format(Locale.ROOT, "%,d %s", n, kind));
      }
    });
    return text.length() == 0 ? "none" : text.toString();
  }
}
