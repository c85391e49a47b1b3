package org.hpf.bench.experiments;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.Callable;
import org.hpf.bench.BenchCluster;
import picocli.CommandLine.Mixin;

/**
 * One experiment of the published HDFS studies as a subcommand of {@code hpf-bench exp}: its
 * own options as fields, the shared ones in {@link #options}; {@link #call} runs it in a context
 * of its own and writes its JSON, Markdown and chart.
 */
public abstract class Experiment implements Callable<Integer> {
  static PrintStream out = System.out;

  @Mixin
  public ExperimentOptions options = new ExperimentOptions();

  /** The subcommand's name and the stem of its output files. */
  public abstract String name();

  /** Runs the experiment in {@code context} (whose cluster it may share with others). */
  public abstract ExperimentResult run(ExperimentContext context) throws Exception;

  /** A result for this experiment, described with the context, the cluster and its settings. */
  ExperimentResult begin(ExperimentContext context, BenchCluster cluster, String title,
      String xTitle, String yTitle, boolean logX, Map<String, Object> settings)
      throws IOException {
    ExperimentResult r = new ExperimentResult(name(), title, xTitle, yTitle);
    r.logX = logX;
    context.describe(r, cluster);
    r.config.putAll(settings);
    return r;
  }

  @Override
  public Integer call() throws Exception {
    try (ExperimentContext context = new ExperimentContext(options, out)) {
      runAndWrite(context);
    }
    return 0;
  }

  /** Runs, writes the three files to the context's --out and says where they are. */
  public ExperimentResult runAndWrite(ExperimentContext context) throws Exception {
    context.log.println("experiment " + name());
    ExperimentResult result = run(context);
    context.finish(result);
    for (java.io.File f : result.write(context.options.cluster.out.getAbsoluteFile())) {
      context.log.println("  wrote " + f);
    }
    return result;
  }
}
