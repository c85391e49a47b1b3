package org.hpf.bench.experiments;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.bench.BenchCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Kim, Figure 4: 1 to T clients writing at once, then reading at once, each its own file
 * through its own client (FileSystem instance); the total time of each phase and every client's
 * own throughput.
 */
@Command(name = "clients", mixinStandardHelpOptions = true,
    description = "1 to T concurrent clients writing then reading (Kim, Figure 4).")
public final class ClientsSuite extends Experiment {
  @Option(names = "--clients", split = ",", defaultValue = "1,2,4,8",
      description = "Client thread counts (default: ${DEFAULT-VALUE}).")
  public List<Integer> clients = new ArrayList<>(List.of(1, 2, 4, 8));

  @Option(names = "--per-client-mib", defaultValue = "16",
      description = "MiB each client writes and reads (default: ${DEFAULT-VALUE}).")
  public int perClientMiB = 16;

  @Option(names = "--block-size", defaultValue = "1048576", paramLabel = "BYTES")
  public long blockSize = 1 << 20;

  @Option(names = "--replication", defaultValue = "3")
  public short replication = 3;

  @Override
  public String name() {
    return "clients";
  }

  @Override
  public ExperimentResult run(ExperimentContext context) throws Exception {
    BenchCluster cluster = context.cluster(context.options.cluster.dataNodes);
    ExperimentResult r = begin(context, cluster, "Concurrent clients: total time",
        "clients", "seconds", false,
        Map.of("clients", clients, "perClientMiB", perClientMiB, "blockSize",
        blockSize, "replication", replication));
    long bytes = (long) perClientMiB << 20;
    List<java.nio.file.Path> source = new LocalData(context.options.cluster.seed)
        .files(context.local("clients"), bytes, bytes);
    for (int t : clients) {
      Path dir = context.dir(cluster, "clients/" + t);
      List<Double> writes = new ArrayList<>();
      List<Double> reads = new ArrayList<>();
      List<Double> writeEach = new ArrayList<>();
      List<Double> readEach = new ArrayList<>();
      for (int rep = 0; rep < context.options.reps; rep++) {
        cluster.fs().delete(dir, true);
        writes.add(phase(cluster, t, (fs, i) -> Transfers.upload(fs, source,
            new Path(dir, "client-" + i), replication, blockSize), writeEach));
        reads.add(phase(cluster, t, (fs, i) -> Transfers.download(fs,
            new Path(dir, "client-" + i)), readEach));
      }
      cluster.fs().delete(dir, true);
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("perClientWriteMBps", bytes / 1e6 / Timing.median(writeEach));
      details.put("perClientReadMBps", bytes / 1e6 / Timing.median(readEach));
      details.put("totalWriteMBps", t * bytes / 1e6 / Timing.median(writes));
      details.put("totalReadMBps", t * bytes / 1e6 / Timing.median(reads));
      r.add("write", "all clients' write", t, Integer.toString(t), writes, details);
      r.add("read", "all clients' read", t, Integer.toString(t), reads, details);
      context.log.printf(Locale.ROOT, "  %2d clients  write %.2f s  read %.2f s%n", t,
          Timing.median(writes), Timing.median(reads));
    }
    compare(r);
    return r;
  }

  /** One client's part of a phase: returns the bytes it moved. */
  interface ClientWork {
    long run(FileSystem fs, int client) throws Exception;
  }

  /**
   * Runs {@code t} clients at once, each with a FileSystem of its own (a DFSClient, its own
   * connections), released together; returns the phase's wall time and adds each client's own.
   */
  private static double phase(BenchCluster cluster, int t, ClientWork work, List<Double> each)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(t);
    List<FileSystem> clients = new ArrayList<>();
    try {
      for (int i = 0; i < t; i++) {
        clients.add(FileSystem.newInstance(cluster.uri(), cluster.conf()));
      }
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Double>> futures = new ArrayList<>();
      for (int i = 0; i < t; i++) {
        FileSystem fs = clients.get(i);
        int client = i;
        futures.add(pool.submit(() -> {
          go.await();
          return Timing.seconds(() -> work.run(fs, client));
        }));
      }
      long start = System.nanoTime();
      go.countDown();
      for (Future<Double> f : futures) {
        each.add(f.get());
      }
      return (System.nanoTime() - start) / 1e9;
    } finally {
      pool.shutdownNow();
      for (FileSystem fs : clients) {
        fs.close();
      }
    }
  }

  private void compare(ExperimentResult r) {
    for (String panel : List.of("write", "read")) {
      List<ExperimentResult.Point> points = r.series(panel, "all clients' " + panel);
      if (points.size() < 2) {
        continue;
      }
      ExperimentResult.Point first = points.get(0);
      ExperimentResult.Point last = points.get(points.size() - 1);
      r.compare(String.format(Locale.ROOT, "%s: total time with %s clients ÷ with %s, against"
          + " %.0f times the data", panel, last.label(), first.label(), last.x() / first.x()),
          null, last.value() / first.value(), "Kim Fig. 4: grows, \"not in proportion to"
              + " the number of clients\" (no values in the text)");
    }
    r.notes.add("Clients are threads of this JVM on the same cores as the NameNode and the"
        + " DataNodes, not separate hosts: their location (Kalmukov et al. §4.B) and network"
        + " are not measurable here; with --fs, run this command from several hosts for that.");
  }
}
