package org.hpf.bench.extract;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.hpf.bench.BenchFiles;
import org.hpf.bench.Results;

/**
 * {@code hpf-bench extract}: {@code hpf extract} against {@code tar -x} of the same files on the
 * same disk. The tree is archived with {@code hpf create}; hpf's extraction of it, untimed, is
 * what {@code tar -c} packs, so both tools write exactly the same files. Then the two take turns
 * for {@code --runs} rounds, each timed as a user would time it: the command (a new JVM for hpf,
 * a process for tar) and a {@code sync} after it, into an empty directory after a {@code sync}.
 * The last outputs of the two are compared file by file (names, bytes, modification times to
 * the second, modes, owners and groups: both restore them the same way).
 */
public final class ExtractRun {
  /** One timed extraction. */
  public record Timing(String tool, int run, double seconds, double loadAverage) {}

  /** What a run measured. */
  public record ExtractResults(String tree, long files, long bytes, List<Timing> timings,
      double tarMedianSeconds, double hpfMedianSeconds, Map<String, Object> environment) {
    /** hpf's median over tar's: at most 1 means hpf is at least as fast. */
    public double ratio() {
      return hpfMedianSeconds / tarMedianSeconds;
    }
  }

  private final ExtractConfig config;
  private final PrintStream log;

  public ExtractRun(ExtractConfig config, PrintStream log) {
    this.config = config;
    this.log = log;
  }

  public ExtractResults run() throws IOException, InterruptedException {
    File hpf = config.hpf != null ? config.hpf : defaultHpf();
    Path work = (config.work != null ? config.work : new File(config.out, "work")).toPath();
    BenchFiles.deleteTree(work);
    Files.createDirectories(work);
    Path archive = work.resolve("tree.hpf");
    Path tar = work.resolve("tree.tar");
    Path reference = work.resolve("reference");
    log.println("archiving " + config.tree + " with " + hpf);
    exec(work, hpf.getPath(), "create", "-q", config.tree.getPath(), archive.toString());
    exec(work, hpf.getPath(), "extract", "-q", archive.toString(), reference.toString());
    exec(work, "tar", "-cf", tar.toString(), "-C", reference.toString(), ".");
    long[] size = count(reference);
    BenchFiles.deleteTree(reference);
    log.printf(Locale.ROOT, "%,d files, %,d bytes; %d runs each%n", size[0], size[1],
        config.runs);

    Path tarOut = work.resolve("tar-x");
    Path hpfOut = work.resolve("hpf-extract");
    List<Timing> timings = new ArrayList<>();
    for (int run = 1; run <= config.runs; run++) {
      // Alternate which goes first, so neither always follows the other's writeback.
      boolean tarFirst = run % 2 == 1;
      for (int turn = 0; turn < 2; turn++) {
        boolean isTar = (turn == 0) == tarFirst;
        Path dest = isTar ? tarOut : hpfOut;
        BenchFiles.deleteTree(dest);
        Files.createDirectories(dest);
        exec(work, "sync");
        long start = System.nanoTime();
        if (isTar) {
          exec(work, "tar", "-xf", tar.toString(), "-C", dest.toString());
        } else {
          exec(work, hpf.getPath(), "extract", "-q", archive.toString(), dest.toString());
        }
        exec(work, "sync");
        double seconds = (System.nanoTime() - start) / 1e9;
        Timing t = new Timing(isTar ? "tar -x" : "hpf extract", run, seconds,
            ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        timings.add(t);
        log.printf(Locale.ROOT, "  run %d %-12s %8.2f s  load %.2f%n", run, t.tool(), seconds,
            t.loadAverage());
      }
    }
    String difference = compare(tarOut, hpfOut);
    if (difference != null) {
      throw new IOException("hpf extract and tar -x wrote different trees: " + difference);
    }
    BenchFiles.deleteTree(work);

    Map<String, Object> environment = new LinkedHashMap<>();
    environment.put("cores", Runtime.getRuntime().availableProcessors());
    environment.put("java", System.getProperty("java.version"));
    environment.put("hpf", hpf.getPath());
    environment.put("work", work.toString());
    ExtractResults results = new ExtractResults(config.tree.getPath(), size[0], size[1],
        timings, median(timings, "tar -x"), median(timings, "hpf extract"), environment);
    write(results);
    log.printf(Locale.ROOT, "median: tar -x %.2f s, hpf extract %.2f s (%.2fx)%n",
        results.tarMedianSeconds(), results.hpfMedianSeconds(), results.ratio());
    return results;
  }

  private void write(ExtractResults r) throws IOException {
    Files.createDirectories(config.out.toPath());
    Results.mapper().writeValue(new File(config.out, "extract.json"), r);
    StringBuilder md = new StringBuilder();
    md.append(String.format(Locale.ROOT, "# hpf extract against tar -x%n%nTree: %s (%,d files,"
        + " %,d bytes), extracted to %s. Each time includes a sync after the command; hpf's"
        + " includes starting its JVM.%n%n| run | tool | seconds | load average |%n"
        + "|---:|---|---:|---:|%n", r.tree(), r.files(), r.bytes(), r.environment().get("work")));
    for (Timing t : r.timings()) {
      md.append(String.format(Locale.ROOT, "| %d | %s | %.2f | %.2f |%n", t.run(), t.tool(),
          t.seconds(), t.loadAverage()));
    }
    md.append(String.format(Locale.ROOT, "%nMedian: tar -x %.2f s, hpf extract %.2f s: hpf takes"
        + " %.2fx tar's time.%n", r.tarMedianSeconds(), r.hpfMedianSeconds(), r.ratio()));
    Files.writeString(new File(config.out, "extract.md").toPath(), md, StandardCharsets.UTF_8);
  }

  private static double median(List<Timing> timings, String tool) {
    double[] s = timings.stream().filter(t -> t.tool().equals(tool))
        .mapToDouble(Timing::seconds).sorted().toArray();
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  /** bin/hpf of the source tree whose build holds this class. */
  private static File defaultHpf() throws IOException {
    try {
      File at = new File(ExtractRun.class.getProtectionDomain().getCodeSource().getLocation()
          .toURI());
      for (File dir = at; dir != null; dir = dir.getParentFile()) {
        File hpf = new File(dir, "bin/hpf");
        if (hpf.canExecute()) {
          return hpf;
        }
      }
    } catch (java.net.URISyntaxException e) {
      throw new IOException(e);
    }
    throw new IOException("bin/hpf not found above this bench's build; give --hpf");
  }

  private void exec(Path dir, String... command) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
        .redirectErrorStream(true);
    Process process = builder.start();
    String output;
    try (InputStream in = process.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    int code = process.waitFor();
    if (code != 0) {
      throw new IOException(String.join(" ", command) + " failed (exit code " + code + "): "
          + output.strip());
    }
  }

  /** Files and bytes below {@code root}. */
  private static long[] count(Path root) throws IOException {
    long[] size = new long[2];
    for (Map.Entry<String, Path> e : files(root).entrySet()) {
      size[0]++;
      size[1] += Files.size(e.getValue());
    }
    return size;
  }

  /** The first difference between the trees, or null. */
  private static String compare(Path a, Path b) throws IOException {
    TreeMap<String, Path> left = files(a);
    TreeMap<String, Path> right = files(b);
    if (!left.keySet().equals(right.keySet())) {
      return left.size() + " files against " + right.size();
    }
    for (String name : left.keySet()) {
      Path x = left.get(name);
      Path y = right.get(name);
      if (Files.getLastModifiedTime(x).toMillis() / 1000
          != Files.getLastModifiedTime(y).toMillis() / 1000) {
        return name + ": modification times differ";
      }
      Map<String, Object> ax = Files.readAttributes(x, "unix:mode,uid,gid");
      Map<String, Object> ay = Files.readAttributes(y, "unix:mode,uid,gid");
      if (!ax.equals(ay)) {
        return name + ": modes or owners differ (" + ax + " against " + ay + ")";
      }
      if (Files.size(x) != Files.size(y)
          || !Arrays.equals(Files.readAllBytes(x), Files.readAllBytes(y))) {
        return name + ": bytes differ";
      }
    }
    return null;
  }

  private static TreeMap<String, Path> files(Path root) throws IOException {
    TreeMap<String, Path> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          files.put(root.relativize(p).toString(), p);
        }
      }
    }
    return files;
  }
}
