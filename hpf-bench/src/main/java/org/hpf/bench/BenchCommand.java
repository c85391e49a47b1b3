package org.hpf.bench;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.hpf.bench.experiments.ExperimentCommand;
import org.hpf.bench.jmh.JmhLauncher;
import org.hpf.bench.scale.ScaleConfig;
import org.hpf.bench.scale.ScaleRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * The {@code hpf-bench} command. {@link #main} is the only place that exits the JVM; {@link
 * #execute} returns the exit code (0 ok, 1 error, 2 bad usage) so tests can call it.
 */
@Command(name = "hpf-bench", mixinStandardHelpOptions = true, version = "hpf-bench",
    description = "Benchmarks HPF against HAR, MapFile, SequenceFile and native HDFS on an"
        + " embedded MiniDFSCluster (or a real cluster with --fs), side by side in one run.",
    subcommands = {BenchCommand.Run.class, BenchCommand.HeadlineRun.class,
        BenchCommand.Render.class, BenchCommand.Jmh.class,
        BenchCommand.MapReduce.class, BenchCommand.Extract.class,
        BenchCommand.Scale.class, BenchCommand.S3.class, ExperimentCommand.class,
        HelpCommand.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {" 0:ok", " 1:error", " 2:bad usage"})
public final class BenchCommand implements Callable<Integer> {
  static final int OK = 0;
  static final int ERROR = 1;
  static final int USAGE = 2;

  public static void main(String[] args) {
    System.exit(execute(args, System.out, System.err));
  }

  public static int execute(String[] args, PrintStream out, PrintStream err) {
    CommandLine cmd = new CommandLine(new BenchCommand());
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    cmd.getCommandSpec().exitCodeOnInvalidInput(USAGE);
    cmd.getCommandSpec().exitCodeOnExecutionException(ERROR);
    cmd.setExecutionExceptionHandler((e, line, parsed) -> {
      if (e instanceof IllegalArgumentException) {
        err.println("hpf-bench: " + e.getMessage());
        return USAGE;
      }
      err.println("hpf-bench: " + e);
      e.printStackTrace(err);
      return ERROR;
    });
    Run.out = out;
    ExperimentCommand.logTo(out);
    return cmd.execute(args);
  }

  @Override
  public Integer call() {
    new CommandLine(this).usage(System.err);
    return USAGE;
  }

  /** {@code hpf-bench run}: every suite, every system, one report. */
  @Command(name = "run", aliases = "archive", mixinStandardHelpOptions = true,
      description = "Generates the dataset, stores it with every system and runs the suites:"
          + " creation, access (cold and warm), namenode, size, throughput. Writes"
          + " results.json, report.md and PNG charts to --out.")
  static final class Run implements Callable<Integer> {
    static PrintStream out = System.out;

    @Mixin
    BenchConfig config = new BenchConfig();

    @Override
    public Integer call() throws Exception {
      new BenchRun(config, out).run();
      return OK;
    }
  }

  /**
   * {@code hpf-bench headline}: the run behind the headline of docs/BENCHMARKS.md, in one
   * command: {@code run}, then {@code exp scan} on a cluster of the same kind with the same seed,
   * then report.md with the scan's rows and targets in its headline.
   */
  @Command(name = "headline", mixinStandardHelpOptions = true,
      description = "Runs `run` (every suite, every system), then `exp scan` of --scan-files"
          + " files on a cluster of the same kind, and writes report.md with both in its"
          + " headline; the scan's files go to <out>/scan.")
  static final class HeadlineRun implements Callable<Integer> {
    @Mixin
    BenchConfig config = new BenchConfig();

    @Option(names = "--scan-files", paramLabel = "N", defaultValue = "100000",
        description = "Small files of the scan (default: ${DEFAULT-VALUE}).")
    int scanFiles = 100_000;

    @Override
    public Integer call() throws Exception {
      Results results = new BenchRun(config, Run.out).run();
      org.hpf.bench.experiments.ScanSuite scan = new org.hpf.bench.experiments.ScanSuite();
      scan.files = scanFiles;
      java.io.File out = config.cluster.out.getAbsoluteFile();
      scan.options.cluster = config.cluster.under(new java.io.File(out, "scan"),
          new java.io.File(config.cluster.workDir(), "scan"));
      org.hpf.bench.experiments.ExperimentResult scanned;
      try (org.hpf.bench.experiments.ExperimentContext context =
          new org.hpf.bench.experiments.ExperimentContext(scan.options, Run.out)) {
        scanned = scan.runAndWrite(context);
      }
      BenchRun.render(results, scanned, out);
      Run.out.println("headline in " + new java.io.File(out, "report.md"));
      return OK;
    }
  }

  /** {@code hpf-bench mapreduce}: hpf's MapReduce build against {@code hadoop archive}. */
  @Command(name = "mapreduce", mixinStandardHelpOptions = true,
      description = "Uploads the files to the cluster, archives them with Hadoop's own"
          + " HadoopArchives job and with hpf's JobDriver on the same job runner, and compares"
          + " job times, NameNode objects (sources kept, then removed), bytes stored and get"
          + " latencies. Writes mapreduce.json and mapreduce.md to --out.")
  static final class MapReduce implements Callable<Integer> {
    @Mixin
    org.hpf.bench.mapreduce.MapReduceConfig config =
        new org.hpf.bench.mapreduce.MapReduceConfig();

    @Override
    public Integer call() throws Exception {
      String problem = config.problem();
      if (problem != null) {
        Run.out.println("hpf-bench mapreduce: " + problem);
        return USAGE;
      }
      new org.hpf.bench.mapreduce.MapReduceRun(config, Run.out).run();
      return OK;
    }
  }

  /** {@code hpf-bench extract}: {@code hpf extract} against {@code tar -x}. */
  @Command(name = "extract", mixinStandardHelpOptions = true,
      description = "Archives a local tree with hpf create, then times hpf extract against"
          + " tar -x of the same files into the same disk, taking turns, each with a sync;"
          + " checks that both wrote the same files. Writes extract.json and extract.md to"
          + " --out.")
  static final class Extract implements Callable<Integer> {
    @Mixin
    org.hpf.bench.extract.ExtractConfig config = new org.hpf.bench.extract.ExtractConfig();

    @Override
    public Integer call() throws Exception {
      String problem = config.problem();
      if (problem != null) {
        Run.out.println("hpf-bench extract: " + problem);
        return USAGE;
      }
      new org.hpf.bench.extract.ExtractRun(config, Run.out).run();
      return OK;
    }
  }

  /** {@code hpf-bench scale}: archives of growing size in a small fixed heap. */
  @Command(name = "scale", mixinStandardHelpOptions = true,
      description = "Builds archives of growing size (default 10^5 and 10^6 files; add 10^7)"
          + " through the writer API in a JVM with a small fixed heap, on the local file system"
          + " and the cluster; measures build time, heap, index size, listing and warm and cold"
          + " gets, and HDFS, HAR and MapFile at the sizes they reach. Writes scale.json,"
          + " scale.md and the charts to --out.")
  static final class Scale implements Callable<Integer> {
    @Mixin
    ScaleConfig config = new ScaleConfig();

    @Override
    public Integer call() throws Exception {
      new ScaleRun(config, Run.out).run();
      return OK;
    }
  }

  /** {@code hpf-bench s3}: the requests of an archive on S3 against one object per file. */
  @Command(name = "s3", mixinStandardHelpOptions = true,
      description = "Stores small files on S3 as one hpf archive and as one object per file,"
          + " then creates, lists and gets both ways, counting the requests each operation"
          + " sends (S3A's statistics) and what they cost at S3's request prices. Runs on an"
          + " S3-protocol server it starts on 127.0.0.1, or on a real bucket with --fs. Writes"
          + " s3.json and s3.md to --out.")
  static final class S3 implements Callable<Integer> {
    @Mixin
    org.hpf.bench.s3.S3Config config = new org.hpf.bench.s3.S3Config();

    @Option(names = "--render", paramLabel = "S3_JSON",
        description = "Run nothing: write s3.md again from this s3.json, to --out.")
    java.io.File render;

    @Override
    public Integer call() throws Exception {
      if (render != null) {
        org.hpf.bench.s3.S3Run.write(org.hpf.bench.s3.S3Results.read(render), config.out);
        return OK;
      }
      String problem = config.problem();
      if (problem != null) {
        throw new IllegalArgumentException(problem);
      }
      new org.hpf.bench.s3.S3Run(config, Run.out).run();
      return OK;
    }
  }

  /** {@code hpf-bench report}: report.md and charts again from a results.json. */
  @Command(name = "report", mixinStandardHelpOptions = true,
      description = "Writes report.md and the PNG charts again from a run's results.json.")
  static final class Render implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RESULTS_JSON")
    java.io.File results;

    @Option(names = {"-o", "--out"}, paramLabel = "DIR",
        description = "Where to write (default: the folder of RESULTS_JSON).")
    java.io.File out;

    @Option(names = "--scan", paramLabel = "SCAN_JSON",
        description = "The scan.json of an `exp scan` run beside it: its rows and targets join"
            + " the headline.")
    java.io.File scan;

    @Override
    public Integer call() throws Exception {
      java.io.File dir = out != null ? out : results.getAbsoluteFile().getParentFile();
      BenchRun.render(Results.read(results), scan == null ? null
          : org.hpf.bench.experiments.ExperimentResult.read(scan), dir);
      return OK;
    }
  }

  /** {@code hpf-bench jmh}: the JMH microbenchmarks (opt-in; not part of any test). */
  @Command(name = "jmh", mixinStandardHelpOptions = true,
      description = "Runs the JMH microbenchmarks of HPF's hot paths (org.hpf.bench.jmh);"
          + " results go to --out as JSON.")
  static final class Jmh implements Callable<Integer> {
    @Option(names = {"-o", "--out"}, defaultValue = "results/jmh.json")
    String out;

    @Option(names = "--quick", description = "One fork, short iterations (a smoke run).")
    boolean quick;

    @Parameters(arity = "0..*", paramLabel = "REGEX",
        description = "Benchmarks to run (default: all).")
    List<String> include = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
      JmhLauncher.run(include, out, quick);
      return OK;
    }
  }
}
