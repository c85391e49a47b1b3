package org.hpf.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.hpf.read.HpfReader;
import org.hpf.write.ArchiveCreator;
import org.hpf.write.CreateResult;
import org.hpf.write.WriterOptions;

/**
 * The core issue's acceptance run on the local file system: generate N files (1 KB to 64 KB),
 * create an archive, check every member byte for byte, then time random gets from a freshly
 * opened reader. Usage: {@code ScaleCheck [files] [gets] [workdir]}.
 */
public final class ScaleCheck {
  private ScaleCheck() {}

  public static void main(String[] args) throws IOException {
    int files = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int gets = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    Path work = Path.of(args.length > 2 ? args[2] : "target/scale-check").toAbsolutePath();
    Path sources = work.resolve("sources");
    Path archive = work.resolve("archive.hpf");
    deleteTree(work);

    long t0 = System.nanoTime();
    List<String> names = new DatasetGenerator(42, 1024, 64 * 1024).write(sources, files);
    long generated = System.nanoTime();
    Configuration conf = new Configuration();
    CreateResult result = ArchiveCreator.create(conf, hadoopPath(archive),
        List.of(hadoopPath(sources)), WriterOptions.defaults());
    long created = System.nanoTime();

    try (HpfReader reader = HpfReader.open(conf, hadoopPath(archive))) {
      for (String name : names) {
        if (!Arrays.equals(Files.readAllBytes(sources.resolve(name)), reader.get(name))) {
          throw new IllegalStateException("member differs from its source: " + name);
        }
      }
    }
    long verified = System.nanoTime();

    SplittableRandom random = new SplittableRandom(7);
    long[] latencies = new long[gets];
    long getsStart = System.nanoTime();
    try (HpfReader reader = HpfReader.open(conf, hadoopPath(archive))) {
      for (int i = 0; i < gets; i++) {
        String name = names.get(random.nextInt(names.size()));
        long start = System.nanoTime();
        reader.get(name);
        latencies[i] = System.nanoTime() - start;
      }
    }
    long getsEnd = System.nanoTime();
    Arrays.sort(latencies);

    System.out.printf(Locale.ROOT, "files %d, original %d bytes, stored %d bytes, parts %d, "
        + "buckets %d%n", result.files(), result.originalBytes(), result.storedBytes(),
        result.parts(), result.buckets());
    System.out.printf(Locale.ROOT, "generate %.1f s, create %.1f s (merge %.1f s, index %.1f s),"
        + " verify all %.1f s%n", secs(generated - t0), secs(created - generated),
        result.mergeMillis() / 1e3, result.indexMillis() / 1e3, secs(verified - created));
    System.out.printf(Locale.ROOT, "index bytes per file %.2f, function bits per key %.2f%n",
        result.indexBytesPerFile(), result.functionBitsPerKey());
    System.out.printf(Locale.ROOT, "%d random gets from a new reader: %.2f s total, p50 %.1f us,"
        + " p90 %.1f us, p99 %.1f us%n", gets, secs(getsEnd - getsStart),
        latencies[gets / 2] / 1e3, latencies[gets * 9 / 10] / 1e3, latencies[gets * 99 / 100] / 1e3);
    deleteTree(work);
  }

  private static double secs(long nanos) {
    return nanos / 1e9;
  }

  private static org.apache.hadoop.fs.Path hadoopPath(Path path) {
    return new org.apache.hadoop.fs.Path(path.toUri());
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (var walk = Files.walk(root)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
