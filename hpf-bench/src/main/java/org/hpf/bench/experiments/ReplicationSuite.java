package org.hpf.bench.experiments;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.hpf.bench.BenchCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Kalmukov et al., Figures 8-10: read and write time at replication 3 and 6, and the bytes the
 * DataNodes wrote, counted by their own metrics (Kalmukov et al. saw replication x the bytes read).
 */
@Command(name = "replication", mixinStandardHelpOptions = true,
    description = "Read/write time at replication 3 vs 6, with the bytes the DataNodes wrote"
        + " (Kalmukov et al., Figures 8-10).")
public final class ReplicationSuite extends Experiment {
  @Option(names = "--sizes-mib", split = ",", defaultValue = "8,16,32,64",
      description = "File sizes in MiB (default: ${DEFAULT-VALUE}).")
  public List<Integer> sizesMiB = new ArrayList<>(List.of(8, 16, 32, 64));

  @Option(names = "--factors", split = ",", defaultValue = "3,6",
      description = "Replication factors (default: ${DEFAULT-VALUE}); the embedded cluster gets"
          + " as many DataNodes as the largest.")
  public List<Short> factors = new ArrayList<>(List.of((short) 3, (short) 6));

  @Option(names = "--block-size", defaultValue = "1048576", paramLabel = "BYTES")
  public long blockSize = 1 << 20;

  @Override
  public String name() {
    return "replication";
  }

  @Override
  public ExperimentResult run(ExperimentContext context) throws Exception {
    int largest = factors.stream().mapToInt(Short::intValue).max().orElse(3);
    BenchCluster cluster = context.cluster(Math.max(largest,
        context.options.cluster.dataNodes));
    ExperimentResult r = begin(context, cluster, "Replication factor: read/write time",
        "MiB", "seconds", true,
        Map.of("sizesMiB", sizesMiB, "factors", factors, "blockSize", blockSize));
    LocalData data = new LocalData(context.options.cluster.seed);
    for (int mib : sizesMiB) {
      long bytes = (long) mib << 20;
      List<java.nio.file.Path> files = data.files(context.local("size-" + mib), bytes, bytes);
      for (short factor : factors) {
        Path dir = context.dir(cluster, "replication/" + factor + "/" + mib);
        RoundTrip trip = RoundTrip.plain(cluster, files, dir, factor, blockSize,
            context.options.reps);
        Map<String, Object> details = new LinkedHashMap<>(trip.throughput());
        long written = trip.dataNodeBytesMedian();
        details.put("dataNodeBytesWritten", written < 0 ? "unavailable" : written);
        details.put("writtenPerByte", written < 0 ? "unavailable" : (double) written / bytes);
        String series = "replication " + factor;
        r.add(series, mib, mib + " MiB", trip, details);
        context.log.printf(Locale.ROOT, "  %4d MiB r=%d  write %.2f s  read %.2f s  DataNodes"
            + " wrote %.2f x%n", mib, factor, trip.writeMedian(), trip.readMedian(),
            (double) written / bytes);
        cluster.fs().delete(dir, true);
      }
    }
    compare(r, cluster);
    return r;
  }

  private void compare(ExperimentResult r, BenchCluster cluster) {
    if (factors.size() >= 2) {
      String low = "replication " + factors.get(0);
      String high = "replication " + factors.get(factors.size() - 1);
      for (String panel : List.of("read", "write")) {
        List<Double> a = values(r, panel, high);
        List<Double> b = values(r, panel, low);
        boolean studyFactors = factors.get(0) == 3 && factors.get(factors.size() - 1) == 6;
        r.compare(panel + ": time at " + high + " ÷ at " + low + ", mean over sizes",
            panel.equals("read") && studyFactors
                ? StudyFigures.meanRatio(StudyFigures.READ_R6, StudyFigures.READ_R3) : null,
            StudyFigures.meanRatio(a, b), panel.equals("read") ? "Kalmukov et al. Fig. 8 (1-512 GB)"
                : "Kalmukov et al. Fig. 9: \"almost matches\" (values not in the text)");
      }
    }
    for (short factor : factors) {
      List<ExperimentResult.Point> points = r.series("write", "replication " + factor);
      double sum = 0;
      int n = 0;
      for (ExperimentResult.Point p : points) {
        if (p.details().get("writtenPerByte") instanceof Double d) {
          sum += d;
          n++;
        }
      }
      if (n > 0) {
        r.compare("bytes written by the DataNodes ÷ bytes of the file, replication " + factor,
            (double) factor, sum / n, "Kalmukov et al. Figs. 4 and 10 (disk I/O charts: "
                + factor + "x); here the DataNodes' BytesWritten metric");
      }
    }
    if (!cluster.startedDaemons()) {
      r.notes.add("Bytes written by the DataNodes are read from the in-process DataNodes'"
          + " metrics; on a real cluster read BytesWritten of each DataNode's /jmx"
          + " (DataNodeActivity) before and after: not measured here.");
    }
    r.notes.add("Replicas are pipelined DataNode to DataNode over the loopback interface: the"
        + " study's question, whether the network switch keeps up with 6 parallel streams, has"
        + " no switch to ask here.");
  }

  private static List<Double> values(ExperimentResult r, String panel, String series) {
    return r.series(panel, series).stream().map(ExperimentResult.Point::value).toList();
  }
}
