package org.hpf.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.hpf.internal.hdfs.CachePinning;
import org.hpf.internal.hdfs.CacheStatus;
import org.hpf.WriteSettings;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.CreateResult;
import org.hpf.internal.write.WriterOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code hpf demo}: an archive on a real (in-process) HDFS cluster, from generated files, read
 * back and compared, with the NameNode objects it saves.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Shows hpf on an in-process HDFS cluster (1 NameNode, 3 DataNodes on"
        + " the loopback interface): generates small log files on the local disk, archives them on the"
        + " cluster, reads a random sample back and compares it byte for byte, and counts the"
        + " NameNode objects (inodes and blocks) the archive uses against what the same files"
        + " would use as plain HDFS files.",
        "Everything lives in a temporary directory (./target/hpf-demo-* when ./target exists,"
            + " else under java.io.tmpdir) that is removed at the end unless --keep.",
        "Exits 0 only if every sampled file matched."})
final class DemoCommand extends HpfSubcommand {
  static final String ARCHIVE = "/demo/logs.hpf";

  @Option(names = "--files", paramLabel = "N", defaultValue = "3000",
      description = "Files to generate (default ${DEFAULT-VALUE}).")
  private int files;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "42",
      description = "Seed of the file names, sizes and contents, and of the sample (default"
          + " ${DEFAULT-VALUE}).")
  private long seed;

  @Option(names = "--sample", paramLabel = "N", defaultValue = "200",
      description = "Files to read back and compare (default ${DEFAULT-VALUE}).")
  private int sample;

  @Option(names = "--keep",
      description = "Keep the generated files and the cluster's storage (the cluster stops).")
  private boolean keep;

  @Override
  protected int run() throws Exception {
    if (files < 1 || sample < 0) {
      throw new ParameterException(spec.commandLine(), "--files must be at least 1 and --sample"
          + " at least 0");
    }
    if (!verbose()) {
      logging().quietCluster();
    }
    PrintStream out = out();
    Path work = Files.createTempDirectory(workParent(), "hpf-demo-");
    boolean ok = false;
    try {
      out.printf(Locale.ROOT, "hpf demo: %s small log files (seed %d) on an in-process HDFS"
          + " cluster%n", Units.count(files), seed);
      long t0 = System.nanoTime();
      DemoFiles.Tree tree = DemoFiles.generate(work.resolve("files"), files, seed);
      out.printf(Locale.ROOT, "  generated  %s files (%s) in %s directories under %s, %s%n",
          Units.count(tree.names().size()), Units.bytes(tree.bytes()),
          Units.count(tree.directories()), tree.root(), Units.millis(millisSince(t0)));

      t0 = System.nanoTime();
      EmbeddedCluster cluster = EmbeddedCluster.start(work.resolve("dfs").toFile(), 3);
      try {
        out.printf(Locale.ROOT, "  cluster    %s: 1 NameNode, 3 DataNodes, loopback only,"
            + " started in %s%n", cluster.uri(), Units.millis(millisSince(t0)));
        ok = archiveAndCompare(cluster, tree);
      } finally {
        if (!verbose()) {
          logging().quietClusterShutdown();
        }
        cluster.shutdown(keep);
      }
      return ok ? ExitCodes.OK : ExitCodes.ERROR;
    } finally {
      if (keep) {
        out.println("  kept       " + work + " (generated files in files/, cluster storage in"
            + " dfs/)");
      } else {
        deleteTree(work);
      }
    }
  }

  private boolean archiveAndCompare(EmbeddedCluster cluster, DemoFiles.Tree tree)
      throws IOException {
    PrintStream out = out();
    Configuration conf = cluster.configuration();
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path(cluster.uri() + ARCHIVE);
    cluster.fileSystem().mkdirs(archive.getParent());

    long inodesBefore = cluster.inodes();
    long blocksBefore = cluster.blocks();
    CreateResult result;
    try (Progress progress = progress("create")) {
      WriterOptions.Builder options = WriterOptions.builder().settings(s -> s.progress(progress));
      result = ArchiveCreator.create(conf, archive,
          List.of(new org.apache.hadoop.fs.Path(tree.root().toUri())), options.build());
    }
    long archiveInodes = cluster.inodes() - inodesBefore;
    long archiveBlocks = cluster.awaitBlocks(blocksBefore, archive) - blocksBefore;
    out.printf(Locale.ROOT, "  created    %s in %s (%s, %s files/s)%n", result.archive(),
        Units.millis(result.totalMillis()),
        Units.rate(result.originalBytes(), result.totalMillis()),
        result.totalMillis() <= 0 ? "-" : Units.count(result.files() * 1000 / result.totalMillis()));
    out.printf(Locale.ROOT, "             stored %s (%.0f%% of original) in %d part file(s); index:"
            + " %d bucket(s), %.1f bytes per file, %.2f function bits per key%n",
        Units.bytes(result.storedBytes()),
        100.0 * result.storedBytes() / Math.max(1, result.originalBytes()), result.parts(),
        result.buckets(), result.indexBytesPerFile(), result.functionBitsPerKey());

    out.println("  hdfs       " + result.hdfs().describe());
    long pinned = System.nanoTime();
    CacheStatus cached = CachePinning.awaitCached(cluster.fileSystem(), archive,
        WriteSettings.defaults().cachePool(), Duration.ofSeconds(10));
    out.printf(Locale.ROOT, "  cached     %s of %s of index in DataNode memory after %s%n",
        Units.bytes(cached.bytesCached()), Units.bytes(cached.bytesNeeded()),
        Units.millis((System.nanoTime() - pinned) / 1_000_000));

    boolean identical = readSample(conf, archive, tree);

    long blockSize = cluster.fileSystem().getDefaultBlockSize(archive);
    long plainInodes = tree.names().size() + tree.directories();
    long plainBlocks = tree.blocksAsPlainFiles(blockSize);
    long archiveTotal = archiveInodes + archiveBlocks;
    long plainTotal = plainInodes + plainBlocks;
    out.println();
    out.printf(Locale.ROOT, "  NameNode objects                   inodes     blocks      total%n");
    out.printf(Locale.ROOT, "  the archive (measured)         %10s %10s %10s%n",
        Units.count(archiveInodes), Units.count(archiveBlocks), Units.count(archiveTotal));
    out.printf(Locale.ROOT, "  as plain HDFS files (computed) %10s %10s %10s%n",
        Units.count(plainInodes), Units.count(plainBlocks), Units.count(plainTotal));
    out.printf(Locale.ROOT, "  the archive uses %s fewer NameNode objects%n",
        archiveTotal <= 0 ? "-" : String.format(Locale.ROOT, "%.0fx", (double) plainTotal
            / archiveTotal));
    out.printf(Locale.ROOT, "  (measured: the NameNode's file and block totals before and after the"
        + " create;%n   computed: one inode per file and per directory, one block per started %s"
        + " block of each non-empty file)%n", Units.bytes(blockSize));
    out.println(identical ? "demo passed" : "demo FAILED: sampled files differ");
    return identical;
  }

  /** Reads a random sample back through a fresh reader and compares it with the local files. */
  private boolean readSample(Configuration conf, org.apache.hadoop.fs.Path archive,
      DemoFiles.Tree tree) throws IOException {
    List<String> names = new ArrayList<>(tree.names());
    Collections.shuffle(names, new Random(seed));
    names = names.subList(0, Math.min(sample, names.size()));
    long[] nanos = new long[names.size()];
    int matched = 0;
    long t0 = System.nanoTime();
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      long openMillis = millisSince(t0);
      for (int i = 0; i < names.size(); i++) {
        String name = names.get(i);
        long start = System.nanoTime();
        byte[] bytes = reader.get(name);
        nanos[i] = System.nanoTime() - start;
        if (Arrays.equals(bytes, Files.readAllBytes(tree.root().resolve(name)))) {
          matched++;
        } else {
          err().println("hpf: demo: " + name + " differs from its source");
        }
      }
      long totalNanos = Arrays.stream(nanos).sum();
      Arrays.sort(nanos);
      out().printf(Locale.ROOT, "  read back  %d random files in %s: archive opened in %s, then %s"
              + " per get (median %s, max %s); %d of %d identical%n", names.size(),
          Units.millis(openMillis + totalNanos / 1e6), Units.millis(openMillis),
          msString(names.isEmpty() ? 0 : totalNanos / names.size()),
          msString(names.isEmpty() ? 0 : nanos[nanos.length / 2]),
          msString(names.isEmpty() ? 0 : nanos[nanos.length - 1]), matched, names.size());
    }
    return matched == names.size();
  }

  private static String msString(long nanos) {
    return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
  }

  private static long millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  /** ./target when it exists (running from a source tree), else java.io.tmpdir. */
  private static Path workParent() {
    Path target = Paths.get("target");
    return Files.isDirectory(target) ? target.toAbsolutePath()
        : Paths.get(System.getProperty("java.io.tmpdir"));
  }

  /** Best effort: a leftover is reported, never allowed to hide the demo's own result. */
  private void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(path);
      }
    } catch (IOException | RuntimeException e) {
      err().println("hpf: demo: could not remove " + root + ": " + e);
    }
  }
}
