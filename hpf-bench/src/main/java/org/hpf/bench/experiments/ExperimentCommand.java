package org.hpf.bench.experiments;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code hpf-bench exp}: the HDFS experiments of the published studies, one subcommand each, and
 * {@code all} to run every one with its defaults in one go.
 */
@Command(name = "exp", aliases = "experiment", mixinStandardHelpOptions = true,
    description = "HDFS experiments of published studies (file size, replication, file count,"
        + " block size, DataNodes, clients, NameNode model, owners, scans, open orders), each"
        + " writing <suite>.json, <suite>.md and <suite>.png.",
    subcommands = {SizeSuite.class, ReplicationSuite.class, FileSizeSuite.class,
        BlockSizeSuite.class, DataNodeSuite.class, ClientsSuite.class, NameNodeModelSuite.class,
        OwnersSuite.class, ScanSuite.class, OpenOrderSuite.class, WarmTailSuite.class,
        ExperimentCommand.All.class, ExperimentCommand.Render.class})
public final class ExperimentCommand implements Callable<Integer> {
  /** Where the experiments log their progress (the command's stdout). */
  public static void logTo(PrintStream out) {
    Experiment.out = out;
  }

  /** Every experiment, with its defaults, in the order that restarts the cluster least. */
  public static List<Experiment> all() {
    return List.of(new SizeSuite(), new FileSizeSuite(), new NameNodeModelSuite(),
        new BlockSizeSuite(), new ClientsSuite(), new ReplicationSuite(), new OwnersSuite(),
        new ScanSuite(), new OpenOrderSuite(), new DataNodeSuite());
  }

  @Override
  public Integer call() {
    new picocli.CommandLine(this).usage(Experiment.out);
    return 2;
  }

  /** {@code hpf-bench exp report}: the Markdown and the chart again from results. */
  @Command(name = "report", mixinStandardHelpOptions = true,
      description = "Writes <suite>.md and <suite>.png again from <suite>.json files.")
  static final class Render implements Callable<Integer> {
    @picocli.CommandLine.Parameters(arity = "1..*", paramLabel = "SUITE_JSON")
    List<java.io.File> results;

    @picocli.CommandLine.Option(names = {"-o", "--out"}, paramLabel = "DIR",
        description = "Where to write (default: the folder of each SUITE_JSON).")
    java.io.File out;

    @Override
    public Integer call() throws Exception {
      for (java.io.File json : results) {
        java.io.File dir = out != null ? out : json.getAbsoluteFile().getParentFile();
        ExperimentResult.read(json).write(dir).forEach(f -> Experiment.out.println("wrote " + f));
      }
      return 0;
    }
  }

  /** {@code hpf-bench exp all}: every experiment in one context (one cluster where it can). */
  @Command(name = "all", mixinStandardHelpOptions = true,
      description = "Runs every experiment with its defaults, sharing the cluster.")
  static final class All implements Callable<Integer> {
    @Mixin
    ExperimentOptions options = new ExperimentOptions();

    @Override
    public Integer call() throws Exception {
      try (ExperimentContext context = new ExperimentContext(options, Experiment.out)) {
        for (Experiment e : all()) {
          e.options = options;
          e.runAndWrite(context);
        }
      }
      return 0;
    }
  }
}
