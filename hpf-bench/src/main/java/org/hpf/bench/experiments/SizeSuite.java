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
 * Kalmukov et al., Figure 3: read and write time of one file as its size doubles. Scaled: their 1
 * to 512 GB files over 128 MB blocks become, by default, 8 to 256 MiB over 1 MiB blocks (the
 * same 8 to 256 blocks as their first six points).
 */
@Command(name = "size", mixinStandardHelpOptions = true,
    description = "Read/write time of one file as its size doubles (Kalmukov et al., Figure 3).")
public final class SizeSuite extends Experiment {
  @Option(names = "--sizes-mib", split = ",", defaultValue = "8,16,32,64,128,256",
      description = "File sizes in MiB (default: ${DEFAULT-VALUE}).")
  public List<Integer> sizesMiB = new ArrayList<>(List.of(8, 16, 32, 64, 128, 256));

  @Option(names = "--block-size", defaultValue = "1048576", paramLabel = "BYTES",
      description = "Block size (default: ${DEFAULT-VALUE}).")
  public long blockSize = 1 << 20;

  @Option(names = "--replication", defaultValue = "3")
  public short replication = 3;

  @Override
  public String name() {
    return "size";
  }

  @Override
  public ExperimentResult run(ExperimentContext context) throws Exception {
    BenchCluster cluster = context.cluster(context.options.cluster.dataNodes);
    ExperimentResult r = begin(context, cluster, "Read/write time vs data size (one file)",
        "MiB", "seconds", true,
        Map.of("sizesMiB", sizesMiB, "blockSize", blockSize, "replication",
        replication));
    LocalData data = new LocalData(context.options.cluster.seed);
    for (int mib : sizesMiB) {
      long bytes = (long) mib << 20;
      List<java.nio.file.Path> files = data.files(context.local("size-" + mib), bytes, bytes);
      Path dir = context.dir(cluster, "size/" + mib);
      RoundTrip trip = RoundTrip.plain(cluster, files, dir, replication, blockSize,
          context.options.reps);
      Map<String, Object> details = trip.throughput();
      details.put("blocks", (bytes + blockSize - 1) / blockSize);
      String label = mib + " MiB";
      r.add("one file", mib, label, trip, details);
      context.log.printf(Locale.ROOT, "  %5d MiB  write %.2f s  read %.2f s%n", mib,
          trip.writeMedian(), trip.readMedian());
      cluster.fs().delete(dir, true);
    }
    compare(r);
    return r;
  }

  private void compare(ExperimentResult r) {
    for (String panel : List.of("write", "read")) {
      List<Double> times = r.series(panel, "one file").stream()
          .map(ExperimentResult.Point::value).toList();
      if (times.size() < 2) {
        continue;
      }
      boolean read = panel.equals("read");
      r.compare(panel + ": time ratio per doubling of size (2 = linear), mean",
          read ? StudyFigures.meanStepRatio(StudyFigures.READ_R3) : null,
          StudyFigures.meanStepRatio(times), read ? "Kalmukov et al. Fig. 3/8 (replication 3"
              + " line, 1-512 GB)" : "Kalmukov et al. Fig. 3 (write values not in the text; it"
              + " says upload is \"a bit slower\" and linear)");
      List<Double> sizes = r.series(panel, "one file").stream()
          .map(ExperimentResult.Point::x).toList();
      r.compare(panel + ": exponent b of time ~ size^b (1 = linear), least squares",
          read ? StudyFigures.exponent(StudyFigures.SIZES_GB, StudyFigures.READ_R3) : null,
          StudyFigures.exponent(sizes, times), "below 1: a fixed cost per file weighs on the"
              + " small sizes");
    }
    r.notes.add("Reads in-process come from the page cache of the host that just wrote the"
        + " data (Kalmukov et al. repeated each test on a different day to avoid its cache).");
  }
}
