package org.hpf.bench.experiments;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.hpf.bench.BenchCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Kim, Figure 3: write speed as the number of DataNodes grows. One embedded cluster per
 * count, started and stopped in turn; on a real cluster (--fs) the count cannot be changed, so
 * its live DataNodes give the one point.
 */
@Command(name = "datanodes", mixinStandardHelpOptions = true,
    description = "Write/read speed with 1 to N DataNodes, one embedded cluster each"
        + " (Kim, Figure 3).")
public final class DataNodeSuite extends Experiment {
  @Option(names = "--counts", split = ",", defaultValue = "1,2,3,4,6",
      description = "DataNode counts (default: ${DEFAULT-VALUE}).")
  public List<Integer> counts = new ArrayList<>(List.of(1, 2, 3, 4, 6));

  @Option(names = "--total-mib", defaultValue = "64",
      description = "Data written per count, in MiB (default: ${DEFAULT-VALUE}).")
  public int totalMiB = 64;

  @Option(names = "--file-mib", defaultValue = "8",
      description = "Size of each file in MiB (default: ${DEFAULT-VALUE}).")
  public int fileMiB = 8;

  @Option(names = "--block-size", defaultValue = "1048576", paramLabel = "BYTES")
  public long blockSize = 1 << 20;

  @Option(names = "--replication", defaultValue = "3",
      description = "Replication, at most the DataNode count (default: ${DEFAULT-VALUE}).")
  public short replication = 3;

  @Override
  public String name() {
    return "datanodes";
  }

  @Override
  public ExperimentResult run(ExperimentContext context) throws Exception {
    ExperimentResult r = new ExperimentResult(name(), "DataNode count: write/read time",
        "DataNodes", "seconds");
    r.config.putAll(Map.of("counts", counts, "totalMiB", totalMiB, "fileMiB", fileMiB,
        "blockSize", blockSize, "replication", replication));
    long total = (long) totalMiB << 20;
    List<java.nio.file.Path> files = new LocalData(context.options.cluster.seed)
        .files(context.local("datanodes"), total, (long) fileMiB << 20);
    if (!context.embedded()) {
      BenchCluster cluster = context.cluster(0);
      context.describe(r, cluster);
      measure(context, cluster, cluster.liveDataNodes(), files, r);
      r.notes.add("A real cluster's DataNode count cannot be changed from the client: the one"
          + " point is its live DataNodes. Rerun with DataNodes decommissioned to sweep.");
    } else {
      for (int n : counts) {
        try (BenchCluster cluster = context.startEmbedded(n)) {
          if (r.environment.isEmpty()) {
            context.describe(r, cluster);
          }
          measure(context, cluster, n, files, r);
        }
      }
      r.environment.put("dataNodes", counts);
      r.notes.add("All DataNodes of an embedded cluster share one host's disk, memory and cores:"
          + " more DataNodes add pipelines and heartbeats, not disks or network ports, so the"
          + " sweep is not meaningful in absolute terms; run it on real clusters of different"
          + " sizes with --fs.");
    }
    List<Double> speeds = r.series("write", series()).stream()
        .map(p -> (Double) p.details().get("writeMBps")).toList();
    if (speeds.size() > 1) {
      double max = speeds.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
      double min = speeds.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
      r.compare("write speed, fastest ÷ slowest DataNode count", StudyFigures.DATANODE_SPREAD,
          max / min, "Kim Fig. 3: \"about 70 to 80 MB/s regardless of the number of data"
              + " nodes\"");
      r.compare("write speed, most DataNodes ÷ fewest", null,
          speeds.get(speeds.size() - 1) / speeds.get(0), "Kim Fig. 3 (1 = flat)");
    }
    return r;
  }

  private String series() {
    return totalMiB + " MiB in files of " + fileMiB + " MiB";
  }

  private void measure(ExperimentContext context, BenchCluster cluster, int dataNodes,
      List<java.nio.file.Path> files, ExperimentResult r) throws Exception {
    short factor = (short) Math.max(1, Math.min(replication, dataNodes));
    Path dir = context.dir(cluster, "datanodes/" + dataNodes);
    RoundTrip trip = RoundTrip.plain(cluster, files, dir, factor, blockSize,
        context.options.reps);
    Map<String, Object> details = trip.throughput();
    details.put("replication", factor);
    details.put("writeMBpsPerDataNode", trip.bytes() / 1e6 / trip.writeMedian() * factor
        / dataNodes);
    r.add(series(), dataNodes, Integer.toString(dataNodes), trip, details);
    context.log.printf(Locale.ROOT, "  %2d DataNodes (replication %d)  write %.2f s  read %.2f s%n",
        dataNodes, factor, trip.writeMedian(), trip.readMedian());
    cluster.fs().delete(dir, true);
  }
}
