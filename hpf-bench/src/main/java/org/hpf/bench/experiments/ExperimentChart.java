package org.hpf.bench.experiments;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.hpf.bench.Charts;
import org.hpf.bench.experiments.ExperimentResult.Point;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The PNG of one experiment: a line chart per panel (write, read, ...), side by side in one
 * image, with a logarithmic y axis like the studies' figures (times that double with the data
 * stay straight lines).
 */
final class ExperimentChart {
  private static final int WIDTH = 640;
  private static final int HEIGHT = 500;

  private ExperimentChart() {}

  static File write(ExperimentResult r, File file) throws IOException {
    Charts.headless();
    List<BufferedImage> images = new ArrayList<>();
    for (String panel : ExperimentReport.panels(r)) {
      images.add(BitmapEncoder.getBufferedImage(chart(r, panel)));
    }
    int width = Math.max(1, images.stream().mapToInt(BufferedImage::getWidth).sum());
    BufferedImage all = new BufferedImage(width, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = all.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, width, HEIGHT);
    int x = 0;
    for (BufferedImage image : images) {
      g.drawImage(image, x, 0, null);
      x += image.getWidth();
    }
    g.dispose();
    ImageIO.write(all, "png", file);
    return file;
  }

  /**
   * Values are drawn as their base-2 logarithms on linear axes labelled with the values
   * themselves (XChart's own log axes label powers of ten only, which a doubling sweep over one
   * decade never reaches): each doubling is one step, as on the studies' figures.
   */
  private static XYChart chart(ExperimentResult r, String panel) {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
        .title(r.suite + ": " + panel).xAxisTitle(r.xTitle + (r.logX ? " (log2)" : ""))
        .yAxisTitle(r.yTitle + " (log2)").build();
    chart.getStyler().setLegendPosition(LegendPosition.OutsideS);
    chart.getStyler().setyAxisTickLabelsFormattingFunction(v -> label(Math.pow(2, v)));
    chart.getStyler().setxAxisTickLabelsFormattingFunction(v -> label(r.logX ? Math.pow(2, v)
        : v));
    for (String series : ExperimentReport.seriesOf(r, panel)) {
      List<Point> points = new ArrayList<>(r.series(panel, series));
      points.sort((a, b) -> Double.compare(a.x(), b.x()));
      List<Double> xs = points.stream().map(p -> r.logX ? log2(p.x()) : p.x()).toList();
      // A value too small to time is drawn at a microsecond (a log axis has no 0).
      List<Double> ys = points.stream().map(p -> log2(Math.max(1e-6, p.value()))).toList();
      chart.addSeries(series, xs, ys).setMarker(SeriesMarkers.CIRCLE);
    }
    return chart;
  }

  private static double log2(double v) {
    return Math.log(v) / Math.log(2);
  }

  /** Whole numbers as such (8, 16, 32), others with three significant digits. */
  private static String label(double v) {
    double rounded = Math.rint(v);
    if (Math.abs(v - rounded) < 1e-6 * Math.max(1, Math.abs(v)) && Math.abs(v) < 1e7) {
      return String.format(java.util.Locale.ROOT, "%,.0f", rounded);
    }
    return ExperimentReport.number(v);
  }
}
