package org.hpf.bench.experiments;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.hpf.bench.BenchCluster;
import org.hpf.bench.Report;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Kalmukov et al., Figures 11-12: the same bytes as one file, as files of 0.8 block (their
 * 102.4 MB against 128 MB blocks) and as files a tenth of that (10.24 MB), plus a fourth line:
 * those small files packed into one HPF archive. Scaled by default to 512 KiB blocks, so 64 MiB
 * holds as many blocks and files (128 blocks, 160 and 1,600 files) as their 16 GB; the defaults
 * are 32 and 64 MiB (8 and 16 GB there).
 */
@Command(name = "file-size", mixinStandardHelpOptions = true,
    description = "Same bytes as one file, files near the block size, files a tenth of that,"
        + " and those small files in an HPF archive (Kalmukov et al., Figures 11-12).")
public final class FileSizeSuite extends Experiment {
  @Mixin
  public LayoutOptions layout = new LayoutOptions();

  @Option(names = "--hpf-threads", defaultValue = "0",
      description = "HPF writer threads (default: HPF's own, the cores but at least 2).")
  public int hpfThreads = 0;

  /** One way to hold the same bytes. */
  record Layout(String series, long fileSize, boolean packed) {}

  List<Layout> layouts(long total) {
    long near = Math.round(layout.blockSize * StudyFigures.NEAR_BLOCK);
    long small = Math.round(near / 10.0);
    return List.of(new Layout("one file", total, false),
        new Layout("files of " + Report.bytes(near), near, false),
        new Layout("files of " + Report.bytes(small), small, false),
        new Layout("HPF archive of the " + Report.bytes(small) + " files", small, true));
  }

  @Override
  public String name() {
    return "file-size";
  }

  /** Writes one layout {@code reps} times (reading it back each time); the data stays. */
  RoundTrip store(ExperimentContext context, BenchCluster cluster, LocalData data, Layout shape,
      long total, Path target, int reps) throws Exception {
    List<java.nio.file.Path> files = data.files(context.local("layout-" + total + "-"
        + shape.fileSize()), total, shape.fileSize());
    return shape.packed()
        ? RoundTrip.packed(cluster, files, target, layout.replication, layout.blockSize,
            hpfThreads, reps)
        : RoundTrip.plain(cluster, files, target, layout.replication, layout.blockSize,
            reps);
  }

  /** Where a layout of {@code total} bytes is kept. */
  Path target(ExperimentContext context, BenchCluster cluster, Layout shape, long total) {
    return context.dir(cluster, "file-size/" + total + "/" + shape.fileSize()
        + (shape.packed() ? "/archive.hpf" : ""));
  }

  @Override
  public ExperimentResult run(ExperimentContext context) throws Exception {
    BenchCluster cluster = context.cluster(context.options.cluster.dataNodes);
    ExperimentResult r = begin(context, cluster, "Same bytes, different file sizes",
        "MiB in total", "seconds", true,
        Map.of("totalsMiB", layout.totalsMiB, "blockSize", layout.blockSize, "replication",
            layout.replication, "hpfThreads", hpfThreads, "hpfCompression", "NONE"));
    LocalData data = new LocalData(context.options.cluster.seed);
    for (int mib : layout.totalsMiB) {
      long total = (long) mib << 20;
      for (Layout shape : layouts(total)) {
        Path target = target(context, cluster, shape, total);
        RoundTrip trip = store(context, cluster, data, shape, total, target,
            context.options.reps);
        Map<String, Object> details = trip.throughput();
        details.put("files", Math.max(1, Math.round((double) total / shape.fileSize())));
        r.add(shape.series(), mib, mib + " MiB", trip, details);
        context.log.printf(Locale.ROOT, "  %4d MiB %-34s write %.2f s  read %.2f s%n", mib,
            shape.series(), trip.writeMedian(), trip.readMedian());
        cluster.fs().delete(target, true);
      }
    }
    compare(r);
    return r;
  }

  private void compare(ExperimentResult r) {
    List<Layout> names = layouts(1);
    String one = names.get(0).series();
    double scale = (128 << 20) / (double) layout.blockSize;
    for (int mib : layout.totalsMiB) {
      double studyGb = mib * scale / 1024;
      int at = StudyFigures.LAYOUT_GB.indexOf(studyGb);
      String where = String.format(Locale.ROOT, "%d MiB here ~ %.0f GB in Kalmukov et al.", mib,
          studyGb);
      for (String panel : List.of("write", "read")) {
        double base = r.point(panel, one, mib).value();
        double near = r.point(panel, names.get(1).series(), mib).value();
        double small = r.point(panel, names.get(2).series(), mib).value();
        double hpf = r.point(panel, names.get(3).series(), mib).value();
        r.compare(panel + " " + mib + " MiB: files near the block size ÷ one file",
            at < 0 ? null : StudyFigures.FILES_102MB.get(at) / StudyFigures.ONE_FILE.get(at),
            near / base, where + (at < 0 ? " (no published value)" : " (Figs. 11-12 table)"));
        r.compare(panel + " " + mib + " MiB: files a tenth of that ÷ one file",
            at < 0 ? null : StudyFigures.FILES_10MB.get(at) / StudyFigures.ONE_FILE.get(at),
            small / base, where);
        r.compare(panel + " " + mib + " MiB: HPF archive ÷ one file", null, hpf / base,
            "not in the study");
        r.compare(panel + " " + mib + " MiB: share of the small files' extra time HPF wins"
            + " back", null, (small - hpf) / (small - base), "(small − HPF) ÷ (small − one"
            + " file); 1 = as fast as one file");
      }
    }
    r.notes.add("Kalmukov et al. print one table for Figures 11-12 (their text does not say"
        + " whether"
        + " write or read); both panels here are compared with it.");
    r.notes.add("HPF writes with its own writer threads (default: the cores, at least 2) and"
        + " stores members uncompressed; plain files are uploaded by one thread, as"
        + " `hdfs dfs -put` does.");
  }
}
