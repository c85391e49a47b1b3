package org.hpf.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;

/**
 * The main class of the child JVM of {@link ChildProcessDaemons}: starts an embedded cluster as
 * {@link BenchCluster#embedded} does, writes the client configuration to a file, says
 * {@value #READY} and answers requests, one per line on standard input, until standard input
 * ends.
 *
 * <p>Usage: {@code ClusterProcess STORAGE DATANODES REPLICATION BLOCK_SIZE CLIENT_CONF}.
 */
public final class ClusterProcess {
  static final String READY = "ready";
  /** {@code counter FIELD}: the DataNodes' activity counter, summed. */
  static final String COUNTER = "counter";
  /** {@code totals}: the NameNode's inodes and blocks. */
  static final String TOTALS = "totals";

  private ClusterProcess() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 5) {
      System.err.println("usage: ClusterProcess STORAGE DATANODES REPLICATION BLOCK_SIZE"
          + " CLIENT_CONF");
      System.exit(2);
    }
    // Only answers go to standard output; the daemons' logs go to standard error.
    PrintStream answers = new PrintStream(new FileOutputStream(java.io.FileDescriptor.out),
        true, StandardCharsets.UTF_8);
    System.setOut(System.err);
    File conf = new File(args[4]);
    try (BenchCluster cluster = BenchCluster.embedded(new File(args[0]),
        Integer.parseInt(args[1]), Short.parseShort(args[2]), Long.parseLong(args[3]))) {
      File written = new File(conf.getPath() + ".tmp");
      try (OutputStream out = new FileOutputStream(written)) {
        cluster.conf().writeXml(out);
      }
      Files.move(written.toPath(), conf.toPath(), StandardCopyOption.ATOMIC_MOVE);
      answers.println(READY);
      serve(cluster, new BufferedReader(new InputStreamReader(System.in,
          StandardCharsets.UTF_8)), answers);
    }
    System.exit(0); // the daemons leave non-daemon threads behind
  }

  private static void serve(BenchCluster cluster, BufferedReader requests, PrintStream answers)
      throws IOException {
    String line;
    while ((line = requests.readLine()) != null) {
      String[] words = line.trim().split(" ");
      switch (words[0]) {
        case COUNTER -> answers.println(cluster.dataNodeCounter(words[1]));
        case TOTALS -> {
          long[] totals = cluster.namesystemTotals();
          answers.println(totals[0] + " " + totals[1]);
        }
        default -> answers.println("unknown request: " + line);
      }
    }
  }
}
