package org.hpf.bench.scale;

import static org.hpf.bench.scale.ScaleResults.number;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hpf.bench.Charts;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** scale.md and the charts "get latency vs archive size" (p50 and p99) of a scale run. */
final class ScaleReport {
  private static final double MIB = 1 << 20;

  private ScaleReport() {}

  static void write(ScaleResults r, File dir) throws IOException {
    Files.writeString(new File(dir, "scale.md").toPath(), markdown(r), StandardCharsets.UTF_8);
    if (!r.points.isEmpty()) {
      Charts.headless();
      for (String percentile : List.of("p50", "p99")) {
        Charts.save(latencyChart(r, percentile),
            new File(dir, "get-latency-vs-size-" + percentile + ".png"));
      }
    }
  }

  static String markdown(ScaleResults r) {
    StringBuilder md = new StringBuilder("# hpf scale run\n\n");
    md.append(String.format(Locale.ROOT, "%s, %s cores, %s; members %s..%s bytes"
        + " (log-uniform, log text), heap of each build -Xmx%s, %s adding threads.%n%n",
        r.environment.get("date"), r.environment.get("cores"), r.environment.get("jvm"),
        r.config.get("minSize"), r.config.get("maxSize"), r.config.get("heap"),
        r.config.get("threads")));
    md.append("## Build\n\n| where | files | create s | files/s | MB/s | append s | live heap MiB"
        + " (create / append / verify / list) | after any GC MiB | peak heap MiB | index B/file |"
        + " bits/key | buckets |\n|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|\n");
    for (Map<String, Object> p : r.points) {
      md.append(String.format(Locale.ROOT, "| %s | %,d | %.1f | %,.0f | %.1f | %.1f | %.0f /"
          + " %.0f / %.0f / %.0f | %.0f | %.0f | %.2f | %.2f | %,d |%n", p.get("where"),
          (long) number(p, "files"), number(p, "createMillis") / 1e3,
          number(p, "filesPerSecond"), number(p, "megabytesPerSecond"),
          number(p, "appendMillis") / 1e3, number(p, "createLiveHeapBytes") / MIB,
          number(p, "appendLiveHeapBytes") / MIB, number(p, "verifyLiveHeapBytes") / MIB,
          number(p, "listLiveHeapBytes") / MIB, number(p, "createHeapAfterGcBytes") / MIB,
          number(p, "createHeapPeakBytes") / MIB, number(p, "indexBytesPerFile"),
          number(p, "functionBitsPerKey"), (long) number(p, "buckets")));
    }
    md.append("\n## Read\n\n| where | files | open ms | reader heap KiB (open / all buckets)"
        + " | ls names/s | warm p50 us | warm p99 us | cold p50 us | cold p99 us |\n"
        + "|---|---:|---:|---|---:|---:|---:|---:|---:|\n");
    for (Map<String, Object> p : r.points) {
      md.append(String.format(Locale.ROOT, "| %s | %,d | %.1f | %.1f / %.1f | %,.0f | %.0f |"
          + " %.0f | %.0f | %.0f |%n", p.get("where"), (long) number(p, "files"),
          number(p, "openMillis"), number(p, "readerHeapAfterOpenBytes") / 1024,
          number(p, "readerHeapAllBucketsBytes") / 1024, number(p, "listNamesPerSecond"),
          number(p, "warmGetP50Micros"), number(p, "warmGetP99Micros"),
          number(p, "coldGetP50Micros"), number(p, "coldGetP99Micros")));
    }
    if (!r.comparisons.isEmpty()) {
      md.append("\n## Other systems (access suite on the cluster)\n\n| system | files | mode |"
          + " p50 us | p99 us |\n|---|---:|---|---:|---:|\n");
      for (ScaleResults.Comparison c : r.comparisons) {
        md.append(String.format(Locale.ROOT, "| %s | %,d | %s | %.0f | %.0f |%n", c.system(),
            c.files(), c.mode(), c.p50Micros(), c.p99Micros()));
      }
    }
    for (String note : r.notes) {
      md.append("\n- ").append(note);
    }
    return md.append('\n').toString();
  }

  /** HPF's gets by archive size (lines), the other systems' at their sizes (points). */
  static XYChart latencyChart(ScaleResults r, String percentile) {
    XYChart chart = new XYChartBuilder().width(900).height(520)
        .title("Random get " + percentile + " vs archive size (log scales)")
        .xAxisTitle("files in the archive").yAxisTitle("microseconds per get").build();
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(LegendPosition.OutsideE);
    String key = percentile.equals("p50") ? "P50Micros" : "P99Micros";
    for (String where : List.of("local", "hdfs")) {
      for (String mode : List.of("warm", "cold")) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (Map<String, Object> p : r.points) {
          if (where.equals(p.get("where"))) {
            x.add(number(p, "files"));
            y.add(Math.max(1, number(p, mode + "Get" + key)));
          }
        }
        if (!x.isEmpty()) {
          chart.addSeries("HPF " + mode + " (" + where + ")", x, y);
        }
      }
    }
    for (ScaleResults.Comparison c : r.comparisons) {
      double value = percentile.equals("p50") ? c.p50Micros() : c.p99Micros();
      chart.addSeries(c.system() + " " + c.mode() + " (cluster, " + c.files() + ")",
          List.of((double) c.files()), List.of(Math.max(1, value)))
          .setMarker(SeriesMarkers.DIAMOND);
    }
    return chart;
  }
}
