package org.hpf.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.server.namenode.NNThroughputBenchmark;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.PatternLayout;
import org.apache.log4j.WriterAppender;
import org.hpf.bench.DatasetGenerator.Member;
import org.hpf.bench.Results.ThroughputResult;
import org.hpf.bench.systems.HdfsFiles;
import org.hpf.bench.systems.HpfArchive;
import org.hpf.internal.read.HpfReader;

/**
 * Metadata throughput in the manner of Hadoop's NNThroughputBenchmark: {@code -op get|stat|list
 * -threads T -files N}. Inputs are drawn before the clock starts and split so that no two
 * threads' operation counts differ by more than one; the report has its shape (operations,
 * elapsed time, ops per second, average time per operation as the sum of the operations' times
 * over their number). Gets run at every thread count, fewest first, after an untimed pass.
 *
 * <ul>
 *   <li>HPF through one shared {@link HpfReader}: get (index + content) at each of
 *       {@code --get-threads}, stat (the index record; format 1 archives also read the entry
 *       header), list (a full listing of names per thread; one operation = one name); and gets
 *       and stats on a reader with a record cache ("HPF+cache", filled by the untimed pass: a get
 *       is one read of the entry, a stat none).
 *   <li>"HPF hpf://": list through the {@code hpf://} file system as a job lists its input,
 *       {@code listFiles(archive, recursive)} with sizes, times and block locations (one
 *       operation = one name), to compare with HDFS's list.
 *   <li>HDFS through the FileSystem API on the same files: get (open + read) at each of
 *       {@code --get-threads}, stat (getFileStatus: one NameNode RPC), list (recursive listing;
 *       one operation = one name).
 *   <li>Hadoop's own NNThroughputBenchmark {@code -op open} and {@code -op fileStatus} against
 *       the same NameNode (remote mode: raw ClientProtocol RPCs, no DataNode), for reference.
 * </ul>
 */
final class ThroughputSuite {
  private static final Pattern STAT = Pattern.compile(
      "--- (\\w+) stats\\s+---.*?# operations: (\\d+).*?Elapsed Time: (\\d+).*?Ops per sec:"
          + " ([0-9.Ee+-]+).*?Average Time: (\\d+)", Pattern.DOTALL);

  private final BenchCluster cluster;
  private final Stores stores;
  private final BenchConfig config;
  private final PrintStream log;

  ThroughputSuite(BenchCluster cluster, Stores stores, BenchConfig config, PrintStream log) {
    this.cluster = cluster;
    this.stores = stores;
    this.config = config;
    this.log = log;
  }

  void run(List<Member> members, int n, Results results) throws Exception {
    int files = Math.min(config.nnFiles, members.size());
    int threads = config.nnThreads;
    List<String> names = new ArrayList<>(files);
    java.util.SplittableRandom random =
        new java.util.SplittableRandom(config.cluster.seed + 77);
    for (int i = 0; i < files; i++) {
      names.add(members.get(random.nextInt(members.size())).name());
    }
    if (stores.get("HPF") instanceof HpfArchive hpf) {
      try (HpfReader reader = hpf.openReader(cluster.fs(), stores.destOf(hpf, n), 0)) {
        getsAtEveryThreadCount(results, "HPF", files, names, reader::get);
        add(results, "HPF", "stat", files, threads, names, reader::stat);
        add(results, "HPF", "list", files, threads, listings(threads), ignored -> {
          try (Stream<String> all = reader.list()) {
            return all.count();
          }
        });
        Path archive = stores.destOf(hpf, n);
        java.net.URI underlying = cluster.fs().getUri();
        Path hpfArchive = new Path("hpf", underlying.getScheme() + "-"
            + (underlying.getAuthority() == null ? "" : underlying.getAuthority()),
            cluster.fs().makeQualified(archive).toUri().getPath());
        try (FileSystem hpfFs =
            FileSystem.newInstance(hpfArchive.toUri(), cluster.fs().getConf())) {
          add(results, "HPF hpf://", "list", files, threads, listings(threads),
              ignored -> countLocated(hpfFs.listFiles(hpfArchive, true)));
        }
      }
      if (config.hpfRecordCacheMib > 0) {
        long bytes = (long) config.hpfRecordCacheMib << 20;
        try (HpfReader cached = hpf.openReader(cluster.fs(), stores.destOf(hpf, n), bytes)) {
          getsAtEveryThreadCount(results, "HPF+cache", files, names, cached::get);
          add(results, "HPF+cache", "stat", files, threads, names, cached::stat);
          log.printf(Locale.ROOT, "  HPF+cache record cache: %s%n", cached.recordCacheStats());
        }
      }
    }
    if (stores.get("HDFS") instanceof HdfsFiles hdfs) {
      FileSystem fs = cluster.fs();
      Path dir = stores.destOf(hdfs, n);
      Op get = name -> {
        try (FSDataInputStream in = fs.open(new Path(dir, hdfs.pathOf(name)))) {
          return in.readAllBytes().length;
        }
      };
      getsAtEveryThreadCount(results, "HDFS", files, names, get);
      add(results, "HDFS", "stat", files, threads, names,
          name -> fs.getFileStatus(new Path(dir, hdfs.pathOf(name))));
      add(results, "HDFS", "list", files, threads, listings(threads),
          ignored -> countLocated(fs.listFiles(dir, true)));
      if (cluster.uri().getScheme().equals("hdfs")) {
        for (String op : List.of("open", "fileStatus")) {
          results.throughput.add(nnThroughputBenchmark(op, threads, files));
          log(results.throughput.get(results.throughput.size() - 1));
        }
      }
    }
  }

  /**
   * Gets of every name at each thread count, fewest threads first, after one untimed pass over
   * every name from the most threads. The pass pays what only a first get pays (a bucket's
   * function, a first read of a block, a DataNode connection, compiling the path), so that the
   * first measured thread count does not pay it alone; before it, the 4-thread run came first
   * after a partial warm-up and measured no faster than one thread.
   */
  private void getsAtEveryThreadCount(Results results, String system, int files,
      List<String> names, Op get) throws Exception {
    int[] counts = java.util.stream.IntStream.concat(
        java.util.Arrays.stream(config.getThreads), java.util.stream.IntStream.of(
            config.nnThreads)).distinct().sorted().toArray();
    measure(system, "get", files, counts[counts.length - 1], names, get);
    for (int t : counts) {
      add(results, system, "get", files, t, names, get);
    }
  }

  /** Walks a listing with block locations; returns the number of files. */
  private static long countLocated(RemoteIterator<LocatedFileStatus> it) throws IOException {
    long count = 0;
    while (it.hasNext()) {
      if (it.next().getBlockLocations() == null) {
        throw new IOException("a listed file without block locations");
      }
      count++;
    }
    return count;
  }

  private static List<String> listings(int threads) {
    List<String> inputs = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      inputs.add("listing-" + i);
    }
    return inputs;
  }

  /** One operation on one input; returns what it got (a count for listings). */
  @FunctionalInterface
  interface Op {
    Object apply(String input) throws IOException;
  }

  private void add(Results results, String system, String op, int files, int threads,
      List<String> inputs, Op operation) throws Exception {
    ThroughputResult r = measure(system, op, files, threads, inputs, operation);
    results.throughput.add(r);
    log(r);
  }

  private void log(ThroughputResult r) {
    log.printf(Locale.ROOT, "  %-9s %-10s %-22s x%-2d ops %,9d  elapsed %,8d ms  %,10.1f ops/s"
        + "  avg %.3f ms%n", r.system(), r.op(), r.source(), r.threads(), r.operations(),
        r.elapsedMillis(), r.opsPerSec(), r.averageMillis());
  }

  static ThroughputResult measure(String system, String op, int files, int threads,
      List<String> inputs, Op operation) throws Exception {
    List<List<String>> perThread = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      perThread.add(new ArrayList<>());
    }
    for (int i = 0; i < inputs.size(); i++) {
      perThread.get(i % threads).add(inputs.get(i));
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Callable<long[]>> tasks = new ArrayList<>();
      for (List<String> mine : perThread) {
        tasks.add(() -> {
          long ops = 0;
          long nanos = 0;
          for (String input : mine) {
            long start = System.nanoTime();
            Object got = operation.apply(input);
            nanos += System.nanoTime() - start;
            ops += got instanceof Long count && op.equals("list") ? count : 1;
          }
          return new long[] {ops, nanos};
        });
      }
      long start = System.nanoTime();
      List<Future<long[]>> futures = pool.invokeAll(tasks);
      long elapsed = System.nanoTime() - start;
      long ops = 0;
      long nanos = 0;
      for (Future<long[]> f : futures) {
        long[] r = f.get();
        ops += r[0];
        nanos += r[1];
      }
      double elapsedMillis = elapsed / 1e6;
      return new ThroughputResult(system, op, "hpf-bench", threads, files, ops,
          Math.round(elapsedMillis), ops / (elapsedMillis / 1e3), ops == 0 ? 0 : nanos / 1e6 / ops);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Runs Hadoop's NNThroughputBenchmark ({@code -op op -threads T -files N}) against the
   * cluster's NameNode and reads its report from its log.
   */
  private ThroughputResult nnThroughputBenchmark(String op, int threads, int files)
      throws Exception {
    Logger logger = Logger.getLogger(NNThroughputBenchmark.class);
    StringWriter captured = new StringWriter();
    WriterAppender appender = new WriterAppender(new PatternLayout("%m%n"), captured);
    Level level = logger.getLevel();
    boolean additive = logger.getAdditivity();
    logger.addAppender(appender);
    logger.setLevel(Level.INFO);
    logger.setAdditivity(false);
    try {
      Configuration conf = cluster.conf();
      NNThroughputBenchmark.runBenchmark(conf, new String[] {"-op", op, "-threads",
          Integer.toString(threads), "-files", Integer.toString(files)});
    } finally {
      logger.removeAppender(appender);
      logger.setLevel(level);
      logger.setAdditivity(additive);
    }
    Matcher m = STAT.matcher(captured.toString());
    if (!m.find()) {
      throw new IOException("no stats in NNThroughputBenchmark's output for -op " + op + ":\n"
          + captured);
    }
    return new ThroughputResult("HDFS", m.group(1), "NNThroughputBenchmark", threads, files,
        Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), Double.parseDouble(m.group(4)),
        Long.parseLong(m.group(5)));
  }
}
