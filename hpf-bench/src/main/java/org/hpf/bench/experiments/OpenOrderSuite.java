package org.hpf.bench.experiments;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.hpf.bench.BenchCluster;
import org.hpf.bench.DatasetGenerator;
import org.hpf.bench.DatasetGenerator.Dataset;
import org.hpf.bench.systems.HpfArchive;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.WriterOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Every member of an archive opened and read once through {@code hpf://}, in the orders
 * readers open files: the order of the entries (a scan), shuffled, and largest first (as Spark's
 * file sources pack their partitions). Each order runs on a new {@code hpf://} instance, one
 * thread, that lists the archive first (as a job on the local runner plans, then reads; the
 * listing is not counted). Its time, the bytes and block reads the DataNodes served, the bytes
 * the client's file system counted, and both byte counts divided by the stored bytes of the
 * members served (their entries, as the archive holds them); the bytes of the last repetition
 * (every repetition reads the same).
 */
@Command(name = "open-order", mixinStandardHelpOptions = true,
    description = "Every member of an archive opened once through hpf://, in part order,"
        + " shuffled and largest first: time and bytes read per stored byte served.")
public final class OpenOrderSuite extends Experiment {
  @Option(names = "--files", defaultValue = "10000",
      description = "Small text files (default: ${DEFAULT-VALUE}).")
  public int files = 10_000;

  @Option(names = "--min-size", defaultValue = "1024",
      description = "Smallest file in bytes (default: ${DEFAULT-VALUE}).")
  public int minSize = 1024;

  @Option(names = "--max-size", defaultValue = "16384",
      description = "Largest file in bytes; sizes are log-uniform (default: ${DEFAULT-VALUE}).")
  public int maxSize = 16 * 1024;

  /** Files per directory of the dataset, as in the scan. */
  private static final int BATCH = 1000;

  /** A member, and its entry's place and length in the archive. */
  private record Member(String name, IndexRecord record) {}

  @Override
  public String name() {
    return "open-order";
  }

  @Override
  public ExperimentResult run(ExperimentContext context) throws Exception {
    BenchCluster cluster = context.cluster(context.options.cluster.dataNodes);
    ExperimentResult r = begin(context, cluster, "Opens of " + String.format(Locale.ROOT,
        "%,d", files) + " members through hpf:// in three orders", "files", "seconds", false,
        Map.of("files", files, "minSize", minSize, "maxSize", maxSize));
    Dataset data = new DatasetGenerator(context.options.cluster.seed, minSize, maxSize,
        DatasetGenerator.SizeDistribution.LOG_UNIFORM, 1, DatasetGenerator.Content.TEXT)
        .writeBatches(context.local("open-order-" + files), files, BATCH);
    Path base = context.dir(cluster, "open-order");
    Path archive = cluster.fs().makeQualified(new Path(base, "data.hpf"));
    new HpfArchive(cluster.conf(), WriterOptions.builder()
        .layout(l -> l.withReplication((short) 1)).build()).create(data, files, archive);
    List<Member> entryOrder = members(cluster.fs(), archive);

    List<Member> shuffled = new ArrayList<>(entryOrder);
    Collections.shuffle(shuffled, new Random(context.options.cluster.seed));
    List<Member> largestFirst = new ArrayList<>(entryOrder);
    largestFirst.sort(Comparator.comparingLong((Member m) -> m.record().originalLength())
        .reversed());
    Map<String, List<Member>> orders = new LinkedHashMap<>();
    orders.put("part order", entryOrder);
    orders.put("shuffled", shuffled);
    orders.put("largest first", largestFirst);
    // The orders take turns in each repetition, so that the machine's load falls on all alike.
    Map<String, List<Double>> seconds = new LinkedHashMap<>();
    Map<String, Map<String, Object>> measured = new LinkedHashMap<>();
    for (int rep = 0; rep < context.options.reps; rep++) {
      for (Map.Entry<String, List<Member>> order : orders.entrySet()) {
        Map<String, Object> details = open(cluster, ScanSuite.hpfPath(archive),
            order.getValue());
        seconds.computeIfAbsent(order.getKey(), k -> new ArrayList<>())
            .add((Long) details.get("millis") / 1000.0);
        measured.put(order.getKey(), details);
        context.log.printf(Locale.ROOT, "  %-14s %7.2f s  %,9d block reads  %,14d DataNode"
            + " bytes (%.3fx)  %,14d client bytes (%.3fx)  %,14d stored bytes served%n",
            order.getKey(), (Long) details.get("millis") / 1000.0,
            details.get("dataNodeBlockReads"), details.get("dataNodeBytesRead"),
            details.get("dataNodeBytesPerStoredByte"), details.get("clientBytesRead"),
            details.get("clientBytesPerStoredByte"), details.get("storedBytesServed"));
      }
    }
    for (String order : orders.keySet()) {
      r.add("open", order, files, String.format(Locale.ROOT, "%,d files", files),
          seconds.get(order), measured.get(order));
    }
    r.notes.add("Each order on a new hpf:// instance in this process, one thread, after a"
        + " listing of the archive by that instance (not counted), as a job on the local runner"
        + " plans and then reads; the archive's index is read as the opens need it.");
    r.notes.add("Stored bytes served: the entries of the members opened (header, name, stored"
        + " bytes, checksum), as the archive holds them. DataNode bytes and block reads are the"
        + " DataNodes' own metrics (BytesRead, BlocksRead); client bytes, the underlying file"
        + " system's statistics.");
    cluster.fs().delete(base, true);
    return r;
  }

  /** The archive's members with their records, in the order of their entries. */
  private static List<Member> members(FileSystem fs, Path archive) throws IOException {
    List<Member> members = new ArrayList<>();
    try (HpfReader reader = HpfReader.open(fs, archive, ReaderOptions.defaults());
        Stream<String> names = reader.list()) {
      for (String name : (Iterable<String>) names::iterator) {
        members.add(new Member(name, reader.record(name)));
      }
    }
    members.sort(Comparator.comparingInt((Member m) -> m.record().part())
        .thenComparingLong(m -> m.record().offset()));
    return members;
  }

  /** Opens and reads every member of {@code order} through a new instance. */
  private static Map<String, Object> open(BenchCluster cluster, Path root, List<Member> order)
      throws Exception {
    Configuration conf = cluster.conf();
    FileSystem.Statistics client = FileSystem.getStatistics(cluster.uri().getScheme(),
        cluster.fs().getClass());
    byte[] buffer = new byte[64 << 10];
    long served = 0;
    long bytes = 0;
    try (FileSystem hpf = FileSystem.newInstance(root.toUri(), conf)) {
      for (RemoteIterator<LocatedFileStatus> it = hpf.listFiles(root, true); it.hasNext();) {
        it.next();
      }
      long blocksBefore = settled(() -> counter(cluster, "blocksRead"));
      long dataNodeBefore = settled(() -> counter(cluster, "bytesRead"));
      long clientBefore = client.getBytesRead();
      long start = System.nanoTime();
      for (Member member : order) {
        try (InputStream in = hpf.open(new Path(root, member.name()))) {
          for (int n; (n = in.read(buffer)) > 0;) {
            bytes += n;
          }
        }
        served += member.record().entryLength();
      }
      long millis = (System.nanoTime() - start) / 1_000_000;
      long clientRead = client.getBytesRead() - clientBefore;
      long dataNodeRead = settled(() -> counter(cluster, "bytesRead")) - dataNodeBefore;
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("millis", millis);
      details.put("members", order.size());
      details.put("bytesServed", bytes);
      details.put("storedBytesServed", served);
      details.put("dataNodeBlockReads", settled(() -> counter(cluster, "blocksRead"))
          - blocksBefore);
      details.put("dataNodeBytesRead", dataNodeRead);
      details.put("clientBytesRead", clientRead);
      details.put("dataNodeBytesPerStoredByte", round((double) dataNodeRead / served));
      details.put("clientBytesPerStoredByte", round((double) clientRead / served));
      return details;
    }
  }

  private static long counter(BenchCluster cluster, String field) {
    try {
      return cluster.dataNodeCounter(field);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * A DataNode counter once two readings 300 ms apart agree: a DataNode counts a read after it
   * has sent the bytes.
   */
  private static long settled(LongSupplier count) throws InterruptedException {
    long last = count.getAsLong();
    while (true) {
      Thread.sleep(300);
      long now = count.getAsLong();
      if (now == last) {
        return now;
      }
      last = now;
    }
  }

  private static double round(double ratio) {
    return Math.round(ratio * 1000) / 1000.0;
  }
}
