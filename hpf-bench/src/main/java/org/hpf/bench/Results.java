package org.hpf.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every raw measurement of a run with its configuration and environment; written as
 * results.json, then turned into report.md and the charts.
 */
public final class Results {
  public final Map<String, Object> config = new LinkedHashMap<>();
  public final Map<String, Object> environment = new LinkedHashMap<>();
  public final Map<String, Object> dataset = new LinkedHashMap<>();
  public final List<CreationPoint> creation = new ArrayList<>();
  public final List<AccessResult> access = new ArrayList<>();
  public final List<StoreCount> stores = new ArrayList<>();
  public final List<ThroughputResult> throughput = new ArrayList<>();
  public final List<BatchGetResult> batchGets = new ArrayList<>();
  public final List<String> notes = new ArrayList<>();

  /** Creation of one system's store of {@code files} files. */
  public record CreationPoint(String system, int files, long originalBytes, long millis,
      Map<String, Object> details) {}

  /**
   * Gets of one system in one mode ("cold" or "warm"): every sample in microseconds, the total
   * of each repetition in milliseconds, and percentiles over all samples (nearest rank).
   */
  public record AccessResult(String system, String mode, int files, int getsPerRep, int reps,
      double p50Micros, double p90Micros, double p99Micros, double meanMicros,
      double minMicros, double maxMicros, List<Double> repTotalsMillis,
      List<Double> samplesMicros, String note) {

    public static AccessResult of(String system, String mode, int files, int getsPerRep,
        List<Double> repTotalsMillis, double[] samplesMicros, String note) {
      double[] sorted = samplesMicros.clone();
      Arrays.sort(sorted);
      List<Double> samples = new ArrayList<>();
      for (double s : samplesMicros) {
        samples.add(s);
      }
      return new AccessResult(system, mode, files, getsPerRep, repTotalsMillis.size(),
          percentile(sorted, 0.50), percentile(sorted, 0.90), percentile(sorted, 0.99),
          Arrays.stream(sorted).average().orElse(Double.NaN),
          sorted.length == 0 ? Double.NaN : sorted[0],
          sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1],
          List.copyOf(repTotalsMillis), samples, note);
    }

    /** Median of the repetitions' totals. */
    public double medianRepTotalMillis() {
      double[] totals = repTotalsMillis.stream().mapToDouble(Double::doubleValue).sorted()
          .toArray();
      return percentile(totals, 0.5);
    }
  }

  /**
   * What one system's store costs the NameNode (files, directories, blocks, measured by RPC)
   * and the DataNodes (logical bytes, bytes with replication).
   */
  public record StoreCount(String system, int files, String path, long nnFiles,
      long nnDirectories, long blocks, long objects, long memoryBytes, long logicalBytes,
      long spaceConsumed, long originalBytes) {
    public double sizeRatio() {
      return originalBytes == 0 ? Double.NaN : (double) logicalBytes / originalBytes;
    }
  }

  /**
   * A selection of names ({@code count} of them) read one way: each repetition's total and
   * their median.
   */
  public record BatchGetResult(String selection, String way, int count,
      List<Double> repTotalsMillis, double medianMillis) {}

  /** One row in the report shape of NNThroughputBenchmark. */
  public record ThroughputResult(String system, String op, String source, int threads,
      long files, long operations, long elapsedMillis, double opsPerSec, double averageMillis) {}

  /** Nearest-rank percentile of sorted values. */
  public static double percentile(double[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  public AccessResult accessOf(String system, String mode) {
    return access.stream().filter(a -> a.system().equals(system) && a.mode().equals(mode))
        .findFirst().orElse(null);
  }

  public StoreCount storeOf(String system) {
    return stores.stream().filter(s -> s.system().equals(system)).findFirst().orElse(null);
  }

  public CreationPoint creationOf(String system, int files) {
    return creation.stream().filter(c -> c.system().equals(system) && c.files() == files)
        .findFirst().orElse(null);
  }

  /** Reads a results.json written by {@link #write}. */
  public static Results read(File file) throws IOException {
    return mapper().readValue(file, Results.class);
  }

  /** Writes the JSON to a temporary file, then renames it: a killed run keeps the last one. */
  public synchronized void write(File file) throws IOException {
    writeJson(this, file);
  }

  /** Writes {@code value} as indented JSON to {@code file}, atomically (see {@link #write}). */
  public static void writeJson(Object value, File file) throws IOException {
    File tmp = new File(file.getPath() + ".tmp");
    mapper().writeValue(tmp, value);
    java.nio.file.Files.move(tmp.toPath(), file.toPath(),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  public static ObjectMapper mapper() {
    return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
        .setVisibility(com.fasterxml.jackson.annotation.PropertyAccessor.FIELD,
            com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility.PUBLIC_ONLY)
        .configure(com.fasterxml.jackson.databind.DeserializationFeature
            .FAIL_ON_UNKNOWN_PROPERTIES, false);
  }
}
