package org.hpf.bench.experiments;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.bench.BenchCluster;
import org.hpf.bench.DatasetGenerator;
import org.hpf.bench.DatasetGenerator.Dataset;
import org.hpf.bench.DatasetGenerator.Member;
import org.hpf.bench.Results;
import org.hpf.bench.systems.HpfArchive;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.WriterOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Where the slowest warm gets go: one reader of an archive (HPF) and one client of plain files
 * (HDFS), kept open, each making random gets in turns, every get timed and told apart by what
 * happened while it ran, the first of these that applies: (HPF) the reader reading a bucket's
 * records whole; a garbage collection in this JVM; JIT compilation in this JVM; the getting
 * thread waiting for a core (its run-queue delay, from {@code /proc/thread-self/schedstat}); a
 * pause of the daemons' JVM for its garbage collection (with {@code --cluster external}, from
 * its log); some task of the machine waiting for a core (the kernel's CPU pressure, {@code
 * /proc/pressure/cpu}). The slowest 1% of each system's gets are counted by cause.
 */
@Command(name = "warm-tail", mixinStandardHelpOptions = true,
    description = "Warm gets of HPF and plain HDFS files, each timed and attributed (garbage"
        + " collection, JIT compilation, records read whole): where the slowest 1%% go.")
public final class WarmTailSuite extends Experiment {
  @Option(names = "--files", defaultValue = "100000",
      description = "Members of the archive (default: ${DEFAULT-VALUE}).")
  public int files = 100_000;

  @Option(names = "--plain-files", defaultValue = "5000",
      description = "Of those, stored as plain files too (default: ${DEFAULT-VALUE}).")
  public int plainFiles = 5_000;

  @Option(names = "--gets", defaultValue = "2000",
      description = "Timed gets per system and repetition (default: ${DEFAULT-VALUE}).")
  public int gets = 2_000;

  @Option(names = "--warmup", defaultValue = "20",
      description = "Untimed gets per system first, as the access suite (default:"
          + " ${DEFAULT-VALUE}).")
  public int warmup = 20;

  private static final int BATCH = 1000;

  /** What ran beside one get: the first that applies, in the order the class comment gives. */
  private enum Cause {
    RECORDS_READ_WHOLE, GARBAGE_COLLECTION, JIT_COMPILATION, WAITED_FOR_A_CORE,
    DAEMONS_GARBAGE_COLLECTION, MACHINE_SHORT_OF_CORES, NONE
  }

  /** A get's time, its interval in wall-clock milliseconds, and its cause. */
  private record Get(double micros, long startMillis, long endMillis, Cause cause) {
    Get because(Cause other) {
      return new Get(micros, startMillis, endMillis, other);
    }
  }

  /** A wait of half a millisecond or more counts. */
  private static final long WAIT_NANOS = 500_000;

  @FunctionalInterface
  private interface Getter {
    void get(String name) throws IOException;
  }

  @Override
  public String name() {
    return "warm-tail";
  }

  @Override
  public ExperimentResult run(ExperimentContext context) throws Exception {
    BenchCluster cluster = context.cluster(context.options.cluster.dataNodes);
    ExperimentResult r = begin(context, cluster, "Warm gets of " + String.format(Locale.ROOT,
        "%,d", files) + " files and what the slowest ran into", "files", "seconds", false,
        Map.of("files", files, "plainFiles", plainFiles, "gets", gets, "warmup", warmup));
    Dataset data = new DatasetGenerator(context.options.cluster.seed, 1024, 16 * 1024,
        DatasetGenerator.SizeDistribution.LOG_UNIFORM, 1, DatasetGenerator.Content.TEXT)
        .writeBatches(context.local("warm-tail-" + files), files, BATCH);
    Path base = context.dir(cluster, "warm-tail");
    Path archive = cluster.fs().makeQualified(new Path(base, "data.hpf"));
    new HpfArchive(cluster.conf(), WriterOptions.builder().build()).create(data, files, archive);
    Path plain = new Path(base, "plain");
    List<Member> stored = data.members().subList(0, Math.min(plainFiles, files));
    upload(cluster.fs(), data, stored, plain);

    Map<String, List<Get>> all = new LinkedHashMap<>();
    Map<String, List<Double>> p99s = new LinkedHashMap<>();
    try (HpfReader reader = HpfReader.open(cluster.fs(), archive, ReaderOptions.defaults());
        FileSystem hdfs = FileSystem.newInstance(cluster.uri(), cluster.conf())) {
      byte[] buffer = new byte[64 << 10];
      Getter hpf = reader::get;
      Getter plainGet = name -> {
        try (InputStream in = hdfs.open(new Path(plain, name))) {
          while (in.read(buffer) > 0) {
            // read whole
          }
        }
      };
      SplittableRandom random = new SplittableRandom(context.options.cluster.seed);
      for (int i = 0; i < warmup; i++) {
        hpf.get(data.members().get(random.nextInt(files)).name());
        plainGet.get(stored.get(random.nextInt(stored.size())).name());
      }
      for (int rep = 0; rep < context.options.reps; rep++) {
        // The systems take turns, a get each, so that the machine's load falls on both alike.
        List<Get> hpfGets = new ArrayList<>();
        List<Get> hdfsGets = new ArrayList<>();
        for (int i = 0; i < gets; i++) {
          hpfGets.add(timed(hpf, data.members().get(random.nextInt(files)).name(), reader));
          hdfsGets.add(timed(plainGet, stored.get(random.nextInt(stored.size())).name(), null));
        }
        record(context, "HPF", rep, withDaemonPauses(hpfGets, cluster.daemonsGcLog()), all,
            p99s);
        record(context, "HDFS", rep, withDaemonPauses(hdfsGets, cluster.daemonsGcLog()), all,
            p99s);
      }
    }
    for (Map.Entry<String, List<Get>> e : all.entrySet()) {
      r.add("p99", e.getKey(), files, String.format(Locale.ROOT, "%,d files", files),
          p99s.get(e.getKey()), summary(e.getValue()));
    }
    r.notes.add("Each get is attributed to the first of: the reader reading a bucket's records"
        + " whole (its held index bytes grew), a garbage collection here (a collector's count"
        + " grew), JIT compilation here (the compiler's total time grew), the getting thread"
        + " waiting 0.5 ms or more for a core (/proc/thread-self/schedstat), a pause of the"
        + " daemons' JVM for garbage collection (its log, --cluster external), some task of the"
        + " machine waiting 0.5 ms or more for a core (/proc/pressure/cpu); else none.");
    cluster.fs().delete(base, true);
    return r;
  }

  private static void upload(FileSystem fs, Dataset data, List<Member> members, Path dir)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (Member m : members) {
        done.add(pool.submit(() -> {
          try (FSDataOutputStream out = fs.create(new Path(dir, m.name()))) {
            out.write(Files.readAllBytes(data.fileOf(m)));
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  private static Get timed(Getter getter, String name, HpfReader reader) throws IOException {
    long held = reader == null ? 0 : reader.heldIndexBytes();
    long collections = collections();
    CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
    long compiling = compiler.getTotalCompilationTime();
    long waited = runQueueNanos();
    long pressure = cpuPressureMicros();
    long startMillis = System.currentTimeMillis();
    long start = System.nanoTime();
    getter.get(name);
    double micros = (System.nanoTime() - start) / 1e3;
    long endMillis = System.currentTimeMillis();
    Cause cause = reader != null && reader.heldIndexBytes() > held ? Cause.RECORDS_READ_WHOLE
        : collections() > collections ? Cause.GARBAGE_COLLECTION
        : compiler.getTotalCompilationTime() > compiling ? Cause.JIT_COMPILATION
        : runQueueNanos() - waited >= WAIT_NANOS ? Cause.WAITED_FOR_A_CORE
        : (cpuPressureMicros() - pressure) * 1000 >= WAIT_NANOS ? Cause.MACHINE_SHORT_OF_CORES
        : Cause.NONE;
    return new Get(micros, startMillis, endMillis, cause);
  }

  /** Nanoseconds this thread has waited runnable for a core, or 0 where Linux does not say. */
  private static long runQueueNanos() {
    try {
      String[] fields = Files.readString(
          java.nio.file.Path.of("/proc/thread-self/schedstat")).trim().split(" ");
      return Long.parseLong(fields[1]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** Microseconds in which some task of the machine waited for a core, or 0 where unknown. */
  private static long cpuPressureMicros() {
    try {
      String some = Files.readAllLines(
          java.nio.file.Path.of("/proc/pressure/cpu")).get(0);
      return Long.parseLong(some.substring(some.indexOf("total=") + 6).trim());
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /**
   * {@code gets} with the daemons' garbage collection pauses as the cause of each that had none
   * in this JVM and overlapped one (from the daemons' log, whose lines end with the time the
   * pause ended and its length).
   */
  private static List<Get> withDaemonPauses(List<Get> gets, File gcLog)
      throws IOException {
    if (gcLog == null || !gcLog.exists()) {
      return gets;
    }
    List<long[]> pauses = new ArrayList<>();
    Pattern line = Pattern.compile(
        "^\\[([^\\]]+)\\].* Pause .* ([0-9.]+)ms$");
    DateTimeFormatter time =
        DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");
    for (String l : Files.readAllLines(gcLog.toPath())) {
      Matcher m = line.matcher(l);
      if (m.matches()) {
        long end = OffsetDateTime.parse(m.group(1), time).toInstant().toEpochMilli();
        pauses.add(new long[] {end - (long) Math.ceil(Double.parseDouble(m.group(2))), end});
      }
    }
    List<Get> attributed = new ArrayList<>(gets.size());
    for (Get g : gets) {
      boolean paused = g.cause() == Cause.NONE || g.cause() == Cause.MACHINE_SHORT_OF_CORES;
      paused &= pauses.stream().anyMatch(p -> p[0] <= g.endMillis() && p[1] >= g.startMillis());
      attributed.add(paused ? g.because(Cause.DAEMONS_GARBAGE_COLLECTION) : g);
    }
    return attributed;
  }

  private static long collections() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionCount());
    }
    return n;
  }

  private static void record(ExperimentContext context, String system, int rep, List<Get> gets,
      Map<String, List<Get>> all, Map<String, List<Double>> p99s) {
    all.computeIfAbsent(system, k -> new ArrayList<>()).addAll(gets);
    double[] micros = gets.stream().mapToDouble(Get::micros).sorted().toArray();
    double p99 = Results.percentile(micros, 0.99);
    p99s.computeIfAbsent(system, k -> new ArrayList<>()).add(p99 / 1e6);
    context.log.printf(Locale.ROOT, "  rep %d %-5s p50 %,8.0f us  p99 %,8.0f us  slowest 1%%: %s%n",
        rep + 1, system, Results.percentile(micros, 0.5), p99, causesOfSlowest(gets));
  }

  private static Map<String, Object> summary(List<Get> gets) {
    double[] micros = gets.stream().mapToDouble(Get::micros).sorted().toArray();
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("gets", gets.size());
    details.put("p50Micros", round(Results.percentile(micros, 0.5)));
    details.put("p90Micros", round(Results.percentile(micros, 0.9)));
    details.put("p99Micros", round(Results.percentile(micros, 0.99)));
    details.put("maxMicros", round(micros[micros.length - 1]));
    details.put("slowestOnePercentByCause", causesOfSlowest(gets));
    Map<String, Long> everyGet = new LinkedHashMap<>();
    for (Cause c : Cause.values()) {
      everyGet.put(c.name(), gets.stream().filter(g -> g.cause() == c).count());
    }
    details.put("everyGetByCause", everyGet);
    return details;
  }

  /** The causes of the slowest 1% of {@code gets}, with their counts. */
  private static Map<String, Long> causesOfSlowest(List<Get> gets) {
    List<Get> sorted = new ArrayList<>(gets);
    sorted.sort((a, b) -> Double.compare(b.micros(), a.micros()));
    List<Get> slowest = sorted.subList(0, Math.max(1, gets.size() / 100));
    Map<String, Long> counts = new LinkedHashMap<>();
    for (Cause c : Cause.values()) {
      long n = slowest.stream().filter(g -> g.cause() == c).count();
      if (n > 0) {
        counts.put(c.name(), n);
      }
    }
    return counts;
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
