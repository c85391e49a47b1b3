package org.hpf.bench.s3;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.VersionInfo;

/**
 * {@code hpf-bench s3}: small files stored on S3 as one hpf archive and as one object each,
 * created, listed and read both ways, counting the requests each operation sends (from S3A's
 * statistics) and timing it. Writes s3.json and s3.md to {@code --out}.
 */
public final class S3Run {
  private final S3Config config;
  private final PrintStream log;

  public S3Run(S3Config config, PrintStream log) {
    this.config = config;
    this.log = log;
  }

  public S3Results run() throws IOException {
    S3Results results = new S3Results();
    results.config.putAll(config.toMap());
    SmallFiles files = SmallFiles.generate(config);
    log.printf(Locale.ROOT, "%,d files, %,d bytes%n", files.count(), files.bytes());
    results.environment.put("files bytes", files.bytes());
    results.environment.put("load average at start", loadAverage());
    try (S3Target target = S3Target.open(config, log)) {
      describe(results, target.conf());
      if (config.warmUpFiles > 1) {
        warmUp(target, files.first(Math.min(files.count(), config.warmUpFiles)));
      }
      // Written after each step: a run stopped half way keeps what it measured.
      results.operations.addAll(new Creations(target, files, log).measure());
      results.stored.putAll(Stored.of(target));
      write(results, config.out);
      results.operations.addAll(new Listings(target, files, log).measure());
      write(results, config.out);
      Gets gets = new Gets(target, files, files.sample(config.gets, config.seed), log);
      for (String stream : config.streams) {
        results.operations.addAll(gets.measure(stream));
        write(results, config.out);
      }
    }
    results.environment.put("load average at end", loadAverage());
    write(results, config.out);
    log.println("report in " + new File(config.out, "s3.md"));
    return results;
  }

  /**
   * Runs every measurement once on a few files, in a directory of its own, and forgets it: the
   * first way measured would otherwise pay for loading and compiling the code of all (times
   * only; the requests are the same).
   */
  private void warmUp(S3Target target, SmallFiles few) throws IOException {
    S3Target scratch = target.below("warm-up");
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
    new Creations(scratch, few, quiet).measure();
    new Listings(scratch, few, quiet).measure();
    Gets gets = new Gets(scratch, few, few.sample(few.count() / 2, config.seed), quiet);
    for (String stream : config.streams) {
      gets.measure(stream);
    }
    log.println("warmed up on " + few.count() + " files");
  }

  /** Writes s3.json and s3.md to {@code out}. */
  public static void write(S3Results results, File out) throws IOException {
    Files.createDirectories(out.toPath());
    results.write(new File(out, "s3.json"));
    Files.writeString(new File(out, "s3.md").toPath(), S3Report.markdown(results),
        StandardCharsets.UTF_8);
  }

  private static void describe(S3Results results, Configuration conf) {
    results.environment.put("cores", Runtime.getRuntime().availableProcessors());
    results.environment.put("java", System.getProperty("java.version"));
    results.environment.put("hadoop", VersionInfo.getVersion());
    for (String key : new String[] {"fs.s3a.input.stream.type", "fs.s3a.multipart.size",
        "fs.s3a.paging.maximum", "fs.s3a.create.conditional.enabled"}) {
      results.environment.put(key, conf.get(key, "(default)"));
    }
  }

  private static String loadAverage() {
    return String.format(Locale.ROOT, "%.2f",
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }
}
