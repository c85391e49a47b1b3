package org.hpf.bench.experiments;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.hpf.bench.BenchCluster.NameNodeCount;
import org.hpf.bench.BenchCluster;
import org.hpf.bench.experiments.FileSizeSuite.Layout;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Shvachko's model applied to the file-size experiment's datasets: each layout is written once,
 * its files and blocks counted from the NameNode, and RAM >= F (1 + lambda) objSize and SC <= F
 * lambda r blockSize printed for plain files and for the same files in an HPF archive (what
 * {@code hpf info} reports for one archive), then for the whole namespace at that moment.
 */
@Command(name = "namenode-model", mixinStandardHelpOptions = true,
    description = "NameNode RAM and capacity model (Shvachko) for the file-size datasets, as"
        + " plain files and as HPF archives.")
public final class NameNodeModelSuite extends Experiment {
  @Mixin
  public LayoutOptions layout = new LayoutOptions();

  @Option(names = "--object-bytes", defaultValue = "200",
      description = "NameNode bytes per object (default: ${DEFAULT-VALUE}, Shvachko).")
  public int objectBytes = StudyFigures.OBJECT_BYTES;

  @Override
  public String name() {
    return "namenode-model";
  }

  @Override
  public ExperimentResult run(ExperimentContext context) throws Exception {
    BenchCluster cluster = context.cluster(context.options.cluster.dataNodes);
    ExperimentResult r = begin(context, cluster, "NameNode model: RAM and capacity",
        "MiB in total", "bytes", true,
        Map.of("totalsMiB", layout.totalsMiB, "blockSize", layout.blockSize, "replication",
            layout.replication, "objectBytes", objectBytes));
    FileSizeSuite layouts = new FileSizeSuite();
    layouts.layout = layout;
    LocalData data = new LocalData(context.options.cluster.seed);
    Map<String, Double> perFileSmall = new LinkedHashMap<>();
    for (int mib : layout.totalsMiB) {
      long total = (long) mib << 20;
      List<Layout> all = layouts.layouts(total);
      for (Layout shape : all) {
        Path target = layouts.target(context, cluster, shape, total);
        layouts.store(context, cluster, data, shape, total, target, 1);
        NameNodeCount c = cluster.count(target);
        ScalingModel m = new ScalingModel(c.files(), c.blocks(), objectBytes,
            layout.replication, layout.blockSize);
        add(r, shape.series(), mib, m, c);
        context.log.printf(Locale.ROOT, "  %4d MiB %-34s F=%,d blocks=%,d lambda=%.2f RAM>=%s"
            + " SC<=%s%n", mib, shape.series(), c.files(), c.blocks(), m.lambda(),
            org.hpf.bench.Report.bytes((long) m.ramBytes()),
            org.hpf.bench.Report.bytes((long) m.capacityBytes()));
        perFileSmall.put(shape.series() + "@" + mib, m.ramBytes());
      }
      r.compare(mib + " MiB: NameNode RAM of the HPF archive ÷ of its small files as plain"
          + " files", null, perFileSmall.get(all.get(3).series() + "@" + mib)
          / perFileSmall.get(all.get(2).series() + "@" + mib), "not in the study");
    }
    long[] totals = cluster.namesystemTotals();
    if (totals != null) {
      r.notes.add(String.format(Locale.ROOT, "Whole namespace at the end (every dataset"
          + " stored): %,d inodes (files and directories) and %,d blocks: RAM >= %s at %d bytes"
          + " per object.", totals[0], totals[1], org.hpf.bench.Report.bytes(
              (totals[0] + totals[1]) * objectBytes), objectBytes));
    } else {
      r.notes.add("The whole namespace's block total is the NameNode's (its /jmx FSNamesystem"
          + " BlocksTotal), not available to a client: only the datasets are modelled.");
    }
    r.notes.add("Directories are NameNode objects too (each layout has one, an HPF archive is a"
        + " directory); Shvachko's model counts files and blocks only, as here.");
    cluster.fs().delete(context.dir(cluster, "file-size"), true);
    return r;
  }

  private void add(ExperimentResult r, String series, int mib, ScalingModel m,
      NameNodeCount c) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("files", c.files());
    details.put("directories", c.directories());
    details.put("blocks", c.blocks());
    details.put("lambda", m.lambda());
    details.put("spaceConsumed", c.spaceConsumed());
    details.put("spaceConsumedOfBound", c.spaceConsumed() / m.capacityBytes());
    r.add("RAM >= F(1+lambda)objSize", series, mib, mib + " MiB", List.of(m.ramBytes()),
        details);
    r.add("SC <= F lambda r blockSize", series, mib, mib + " MiB", List.of(m.capacityBytes()),
        details);
    // The same lambda at Shvachko's 128 MB blocks (file sizes here scale with the block).
    ScalingModel studyScale = new ScalingModel(m.files(), m.blocks(), m.objectBytes(),
        m.replication(), 128L << 20);
    double studyLambda = StudyFigures.BLOCKS_PER_FILE;
    r.compare(mib + " MiB " + series + ": objects per file (1 + lambda)", 1 + studyLambda,
        1 + m.lambda(), "Shvachko: 1.5 blocks per file on Yahoo!'s clusters");
    r.compare(mib + " MiB " + series + ": disk referenced per byte of RAM at 128 MB blocks",
        studyLambda * 3 * (128L << 20) / ((1 + studyLambda) * StudyFigures.OBJECT_BYTES),
        studyScale.capacityPerRamByte(), "Shvachko rule 1: 1 GB of RAM ~ 1 PB of disk");
  }
}
