package org.hpf.bench.scale;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hpf.bench.Results;

/**
 * Everything a scale run measured, written as scale.json: one point per archive size and file
 * system (the figures of {@link ScaleProbe}), and the gets of the other systems at the sizes
 * they were compared at.
 */
public final class ScaleResults {
  public final Map<String, Object> config = new LinkedHashMap<>();
  public final Map<String, Object> environment = new LinkedHashMap<>();
  public final List<Map<String, Object>> points = new ArrayList<>();
  public final List<Comparison> comparisons = new ArrayList<>();
  public final List<String> notes = new ArrayList<>();

  /** One system's gets in one mode at one size, from a {@code run} of the access suite. */
  public record Comparison(String system, String mode, int files, double p50Micros,
      double p99Micros) {}

  public static ScaleResults read(File file) throws IOException {
    return Results.mapper().readValue(file, ScaleResults.class);
  }

  public synchronized void write(File file) throws IOException {
    Results.writeJson(this, file);
  }

  /** A number of a point (JSON gives back ints, longs or doubles). */
  static double number(Map<String, Object> point, String key) {
    Object value = point.get(key);
    return value instanceof Number n ? n.doubleValue() : Double.NaN;
  }
}
