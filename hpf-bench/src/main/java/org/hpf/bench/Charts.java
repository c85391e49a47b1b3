package org.hpf.bench;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.hpf.bench.Results.AccessResult;
import org.hpf.bench.Results.CreationPoint;
import org.hpf.bench.Results.StoreCount;
import org.hpf.bench.Results.ThroughputResult;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler.LegendPosition;

/** PNG charts of a run (XChart), one per suite; returns the files written. */
public final class Charts {
  private static final int WIDTH = 800;
  private static final int HEIGHT = 480;

  private Charts() {}

  static List<File> write(Results r, File dir) throws IOException {
    headless();
    List<File> written = new ArrayList<>();
    if (!r.creation.isEmpty()) {
      written.add(save(creation(r), new File(dir, "creation.png")));
    }
    if (!r.access.isEmpty()) {
      for (String mode : List.of("cold", "warm")) {
        CategoryChart chart = access(r, mode);
        if (chart != null) {
          written.add(save(chart, new File(dir, "access-" + mode + ".png")));
        }
      }
    }
    if (!r.stores.isEmpty()) {
      written.add(save(namenode(r), new File(dir, "namenode.png")));
      written.add(save(size(r), new File(dir, "size.png")));
    }
    if (!r.throughput.isEmpty()) {
      written.add(save(throughput(r), new File(dir, "throughput.png")));
    }
    return written;
  }

  /** Charts are drawn without a display (a server, a CI runner). */
  public static void headless() {
    System.setProperty("java.awt.headless", "true");
  }

  private static XYChart creation(Results r) {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
        .title("Creation time (log scale)").xAxisTitle("files").yAxisTitle("seconds").build();
    chart.getStyler().setLegendPosition(LegendPosition.OutsideE);
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setXAxisDecimalPattern("#,###");
    for (String system : Report.systems(r)) {
      List<Double> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      for (CreationPoint c : r.creation) {
        if (c.system().equals(system)) {
          x.add((double) c.files());
          y.add(Math.max(1e-3, c.millis() / 1e3));
        }
      }
      if (!x.isEmpty()) {
        chart.addSeries(system, x, y);
      }
    }
    return chart;
  }

  private static CategoryChart access(Results r, String mode) {
    List<String> systems = new ArrayList<>();
    List<Double> p50 = new ArrayList<>();
    List<Double> p90 = new ArrayList<>();
    List<Double> p99 = new ArrayList<>();
    for (String system : Report.systems(r)) {
      AccessResult a = r.accessOf(system, mode);
      if (a != null) {
        systems.add(system);
        p50.add(a.p50Micros() / 1e3);
        p90.add(a.p90Micros() / 1e3);
        p99.add(a.p99Micros() / 1e3);
      }
    }
    if (systems.isEmpty()) {
      return null;
    }
    CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
        .title("Random get, " + mode + " (log scale)").yAxisTitle("milliseconds per get")
        .build();
    logAxis(chart, p50);
    chart.getStyler().setLegendPosition(LegendPosition.InsideNW);
    chart.addSeries("p50", systems, p50);
    chart.addSeries("p90", systems, p90);
    chart.addSeries("p99", systems, p99);
    return chart;
  }

  private static CategoryChart namenode(Results r) {
    List<String> systems = new ArrayList<>();
    List<Double> inodes = new ArrayList<>();
    List<Double> blocks = new ArrayList<>();
    for (StoreCount s : r.stores) {
      systems.add(s.system());
      inodes.add((double) Math.max(1, s.nnFiles() + s.nnDirectories()));
      blocks.add((double) Math.max(1, s.blocks()));
    }
    CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
        .title("NameNode objects (log scale)").yAxisTitle("objects").build();
    List<Double> all = new ArrayList<>(inodes);
    all.addAll(blocks);
    logAxis(chart, all);
    chart.getStyler().setLegendPosition(LegendPosition.InsideNE);
    chart.addSeries("inodes (files + directories)", systems, inodes);
    chart.addSeries("blocks", systems, blocks);
    return chart;
  }

  private static CategoryChart size(Results r) {
    List<String> systems = new ArrayList<>();
    List<Double> logical = new ArrayList<>();
    List<Double> original = new ArrayList<>();
    for (StoreCount s : r.stores) {
      systems.add(s.system());
      logical.add(s.logicalBytes() / 1048576.0);
      original.add(s.originalBytes() / 1048576.0);
    }
    CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
        .title("Store size (without replication)").yAxisTitle("MiB").build();
    chart.getStyler().setLegendPosition(LegendPosition.InsideNE);
    chart.addSeries("original", systems, original);
    chart.addSeries("store", systems, logical);
    return chart;
  }

  private static CategoryChart throughput(Results r) {
    TreeSet<String> ops = new TreeSet<>();
    List<String> labels = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    for (ThroughputResult t : r.throughput) {
      ops.add(t.op());
      labels.add(t.system() + " " + t.op() + " x" + t.threads()
          + (t.source().equals("NNThroughputBenchmark") ? " (NNTB)" : ""));
      values.add(Math.max(1e-3, t.opsPerSec()));
    }
    CategoryChart chart = new CategoryChartBuilder().width(WIDTH + 200).height(HEIGHT)
        .title("Metadata throughput (log scale)").yAxisTitle("operations per second").build();
    logAxis(chart, values);
    chart.getStyler().setLegendVisible(false);
    chart.getStyler().setXAxisLabelRotation(30);
    chart.addSeries("ops/s", labels, values);
    return chart;
  }

  /**
   * A logarithmic y axis from the power of ten below the smallest value: XChart's bar charts
   * start at 0 otherwise, which a log axis cannot show.
   */
  static void logAxis(CategoryChart chart, List<Double> values) {
    double min = values.stream().mapToDouble(Double::doubleValue).filter(v -> v > 0).min()
        .orElse(1);
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(min))));
  }

  public static File save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, File file)
      throws IOException {
    BitmapEncoder.saveBitmap(chart, file.getAbsolutePath(), BitmapFormat.PNG);
    return file;
  }
}
