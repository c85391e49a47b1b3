package org.hpf.bench.scale;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hpf.bench.BenchCluster;
import org.hpf.bench.BenchConfig;
import org.hpf.bench.BenchFiles;
import org.hpf.bench.BenchRun;
import org.hpf.bench.ChildJvm;
import org.hpf.bench.DatasetGenerator;
import org.hpf.bench.Results;

/**
 * The scale suite: archives of growing size built through the writer API in a JVM with a
 * fixed small heap, on the local file system and on the cluster, each followed by verify,
 * list and gets (see {@link ScaleProbe}); then HDFS, HAR and MapFile measured by the access
 * suite at the sizes they reach, on the same cluster; then scale.json, scale.md and the charts.
 */
public final class ScaleRun {
  private final ScaleConfig config;
  private final PrintStream log;

  public ScaleRun(ScaleConfig config, PrintStream log) {
    this.config = config;
    this.log = log;
  }

  public ScaleResults run() throws Exception {
    String problem = config.problem();
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    File out = config.cluster.out.getAbsoluteFile();
    File work = config.cluster.workDir().getAbsoluteFile();
    BenchFiles.deleteTree(work.toPath());
    Files.createDirectories(work.toPath());
    Files.createDirectories(out.toPath());
    File json = new File(out, "scale.json");
    ScaleResults results = new ScaleResults();
    results.config.putAll(config.toMap());
    BenchRun.environment(results.environment);
    // The probes run with these (their JIT tier is this JVM's): recorded with their times.
    results.environment.put("probeJvmOptions", ChildJvm.options());
    try {
      for (int files : config.sizes) {
        probe("local", new File(work, "local").toURI().toString(), files, work, results);
        results.write(json);
      }
      if (!config.hdfsSizes.isEmpty() || !config.compare.isEmpty()) {
        // One cluster for both: each start costs seconds of CPU.
        try (BenchCluster cluster = config.cluster.connectOrStart(work, config.blocks, log)) {
          for (int files : config.hdfsSizes) {
            probe("hdfs", cluster.uri().toString(), files, work, results);
            cluster.fs().delete(cluster.path("/hpf-scale"), true);
            results.write(json);
          }
          for (int files : config.compare) {
            compare(files, out, cluster, results);
            results.write(json);
          }
        }
      }
    } finally {
      results.write(json);
      ScaleReport.write(results, out);
      if (!config.cluster.keepWork) {
        BenchFiles.deleteTree(work.toPath());
      }
    }
    log.println("results in " + out);
    return results;
  }

  /** Measures one archive size in a JVM of its own with the configured heap. */
  private void probe(String where, String fileSystem, int files, File work,
      ScaleResults results) throws IOException, InterruptedException {
    log.printf(Locale.ROOT, "%s: %,d files (-Xmx%s)%n", where, files, config.heap);
    String archive = "hdfs".equals(where) ? "/hpf-scale/" + files + ".hpf"
        : new File(work, "local/" + files + ".hpf").getAbsolutePath();
    File scratch = new File(work, "scratch");
    Files.createDirectories(scratch.toPath());
    ScaleProbe.Spec spec = new ScaleProbe.Spec(fileSystem, archive, files, config.cluster.seed,
        config.minSize, config.maxSize, config.threads, config.gets, config.coldGets,
        scratch.getAbsolutePath(), config.verify, config.blocks.blockSize,
        config.blocks.replication);
    File specFile = new File(work, "spec-" + where + "-" + files + ".json");
    File resultFile = new File(work, "result-" + where + "-" + files + ".json");
    Results.writeJson(spec, specFile);
    List<String> command = new ArrayList<>(ChildJvm.command());
    command.addAll(List.of("-Xmx" + config.heap, "-Xms" + config.heap,
        "-XX:+ExitOnOutOfMemoryError",
        "-Xlog:gc:file=" + new File(config.cluster.out, "gc-" + where + "-" + files + ".log")
            .getAbsolutePath(),
        "-cp", System.getProperty("java.class.path"), ScaleProbe.class.getName(),
        specFile.getAbsolutePath(), resultFile.getAbsolutePath()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.PIPE).start();
    process.getOutputStream().close();
    try (var lines = process.inputReader().lines()) {
      lines.forEach(log::println);
    }
    int code = process.waitFor();
    if (code != 0) {
      throw new IOException("the " + where + " probe of " + files + " files exited with "
          + code + " (see its output above)");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> point = Results.mapper().readValue(resultFile, Map.class);
    point.put("where", where);
    results.points.add(point);
    if ("local".equals(where)) {
      BenchFiles.deleteTree(new File(archive).toPath());
    }
  }

  /** HDFS, HAR and MapFile (and HPF, for reference) through the access suite. */
  private void compare(int files, File out, BenchCluster cluster, ScaleResults results)
      throws Exception {
    log.printf(Locale.ROOT, "comparison at %,d files%n", files);
    BenchConfig run = new BenchConfig();
    run.files = List.of(files);
    run.cluster = config.cluster.under(new File(out, "compare-" + files),
        new File(config.cluster.workDir(), "compare-" + files));
    run.blocks = config.blocks;
    run.systems = new ArrayList<>(List.of("HDFS", "HPF", "HAR", "MapFile"));
    run.suites = new ArrayList<>(List.of("access"));
    run.minSize = config.minSize;
    run.maxSize = config.maxSize;
    run.sizeDistribution = DatasetGenerator.SizeDistribution.LOG_UNIFORM;
    run.gets = config.compareGets;
    run.reps = config.compareReps;
    Results measured = new BenchRun(run, log).run(cluster);
    for (Results.AccessResult a : measured.access) {
      results.comparisons.add(new ScaleResults.Comparison(a.system(), a.mode(), a.files(),
          a.p50Micros(), a.p99Micros()));
    }
  }
}
