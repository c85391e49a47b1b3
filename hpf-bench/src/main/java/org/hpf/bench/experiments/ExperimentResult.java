package org.hpf.bench.experiments;

import com.fasterxml.jackson.annotation.JsonAlias;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hpf.bench.Results;

/**
 * What one experiment measured: its points (one per panel, line and x), the published study's
 * values it is compared with, and notes on what could not be measured. Written as {@code
 * <suite>.json}, {@code <suite>.md} and {@code <suite>.png}.
 */
public final class ExperimentResult {
  public String suite;
  public String title;
  public String xTitle;
  public String yTitle;
  public boolean logX;
  public final Map<String, Object> config = new LinkedHashMap<>();
  public final Map<String, Object> environment = new LinkedHashMap<>();
  public final List<Point> points = new ArrayList<>();
  public final List<Comparison> comparisons = new ArrayList<>();
  public final List<String> notes = new ArrayList<>();

  /**
   * One measured value: the median over its repetitions (each repetition's value is kept), in
   * {@code panel} (e.g. "write" or "read"), on line {@code series}, at {@code x} (labelled
   * {@code label}); details are further measurements of the same point.
   */
  public record Point(String panel, String series, double x, String label, double value,
      List<Double> reps, Map<String, Object> details) {}

  /**
   * One quantity as the published study reports it and as this run measured it, both as ratios (so
   * clusters of different speed compare); {@code published} is null where the study gives no
   * number; results written before it was named so call it "seed".
   */
  public record Comparison(String quantity,
      @JsonAlias("seed") Double published, Double ours, String source) {}

  ExperimentResult(String suite, String title, String xTitle, String yTitle) {
    this.suite = suite;
    this.title = title;
    this.xTitle = xTitle;
    this.yTitle = yTitle;
  }

  /** For Jackson. */
  ExperimentResult() {}

  Point add(String panel, String series, double x, String label, List<Double> reps,
      Map<String, Object> details) {
    Point p = new Point(panel, series, x, label, Timing.median(reps), List.copyOf(reps),
        details);
    points.add(p);
    return p;
  }

  /** A round trip's write and read as points of the "write" and "read" panels. */
  void add(String series, double x, String label, RoundTrip trip, Map<String, Object> details) {
    add("write", series, x, label, trip.writeSeconds(), details);
    add("read", series, x, label, trip.readSeconds(), details);
  }

  /** The point of {@code panel}/{@code series} at {@code x}, or null. */
  public Point point(String panel, String series, double x) {
    return points.stream().filter(p -> p.panel().equals(panel) && p.series().equals(series)
        && p.x() == x).findFirst().orElse(null);
  }

  public List<Point> series(String panel, String series) {
    return points.stream().filter(p -> p.panel().equals(panel) && p.series().equals(series))
        .toList();
  }

  void compare(String quantity, Double published, double ours, String source) {
    comparisons.add(new Comparison(quantity, published, ours, source));
  }

  /** Reads a {@code <suite>.json} written by {@link #write}. */
  public static ExperimentResult read(File json) throws IOException {
    return Results.mapper().readValue(json, ExperimentResult.class);
  }

  /** Writes the JSON, the Markdown and the chart to {@code dir}; returns the three files. */
  public List<File> write(File dir) throws IOException {
    Files.createDirectories(dir.toPath());
    File json = new File(dir, suite + ".json");
    Results.writeJson(this, json);
    File md = new File(dir, suite + ".md");
    Files.writeString(md.toPath(), ExperimentReport.markdown(this), StandardCharsets.UTF_8);
    File png = ExperimentChart.write(this, new File(dir, suite + ".png"));
    return List.of(json, md, png);
  }
}
