package org.hpf.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;

/**
 * HDFS daemons in a child JVM, as on a real cluster: the NameNode and DataNodes do not share the
 * benchmark's heap, garbage collector or JIT with the client it measures. The child is a
 * {@link ClusterProcess} on this JVM's class path, listening on the loopback interface only. It
 * answers the counters on its standard output, logs to {@code cluster.log} in its storage
 * directory, and stops when asked, when this JVM exits, or when its standard input closes (this
 * JVM died), so no daemon outlives the run.
 */
final class ChildProcessDaemons implements ClusterDaemons {
  private static final long START_TIMEOUT_SECONDS = 300;

  private final Process process;
  private final PrintWriter requests;
  private final BufferedReader answers;
  private final File logFile;
  private final File gcLog;
  private final int dataNodes;
  private final Thread stopOnExit;

  private ChildProcessDaemons(Process process, File logFile, File gcLog, int dataNodes) {
    this.gcLog = gcLog;
    this.process = process;
    this.requests = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
    this.answers = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.logFile = logFile;
    this.dataNodes = dataNodes;
    this.stopOnExit = new Thread(process::destroy, "hpf-bench-stop-cluster");
    Runtime.getRuntime().addShutdownHook(stopOnExit);
  }

  /**
   * Starts the daemons with their storage in {@code storage} and waits until they serve;
   * returns them and the client configuration the child wrote.
   */
  static Started start(File storage, int dataNodes, short replication, long blockSize,
      PrintStream log) throws IOException {
    Files.createDirectories(storage.toPath());
    File confFile = new File(storage, "client-site.xml");
    Files.deleteIfExists(confFile.toPath());
    File logFile = new File(storage, "cluster.log");
    List<String> command = new ArrayList<>(ChildJvm.command());
    // Its pauses, with wall-clock times, so that a client's slow call can be matched to one.
    File gcLog = new File(storage, "daemons-gc.log");
    command.add("-Xlog:gc:file=" + gcLog.getAbsolutePath() + ":time");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(ClusterProcess.class.getName());
    command.add(storage.getAbsolutePath());
    command.add(Integer.toString(dataNodes));
    command.add(Short.toString(replication));
    command.add(Long.toString(blockSize));
    command.add(confFile.getAbsolutePath());
    log.printf(Locale.ROOT, "starting NameNode and %d DataNodes in a child JVM (log: %s)%n",
        dataNodes, logFile);
    Process process = new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.to(logFile))
        .start();
    ChildProcessDaemons daemons = new ChildProcessDaemons(process, logFile, gcLog, dataNodes);
    try {
      daemons.awaitReady();
      Configuration conf = new Configuration(false);
      conf.addResource(new org.apache.hadoop.fs.Path(confFile.toURI()));
      conf.size(); // loads it now, before the file can go
      return new Started(daemons, conf);
    } catch (IOException | RuntimeException e) {
      daemons.close();
      throw e;
    }
  }

  /** The daemons and the client configuration that reaches them. */
  record Started(ChildProcessDaemons daemons, Configuration conf) {}

  private void awaitReady() throws IOException {
    Thread watchdog = new Thread(() -> {
      try {
        if (!process.waitFor(START_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          process.destroy(); // not ready in time: readLine below ends
        }
      } catch (InterruptedException e) {
        // ready in time
      }
    }, "hpf-bench-cluster-start");
    watchdog.setDaemon(true);
    watchdog.start();
    try {
      String line = answers.readLine();
      if (!ClusterProcess.READY.equals(line)) {
        throw new IOException("the cluster's child JVM did not start (it said " + line
            + "); the end of " + logFile + ":\n" + tail());
      }
    } finally {
      watchdog.interrupt();
    }
  }

  private String tail() {
    try {
      List<String> lines = Files.readAllLines(logFile.toPath(), StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  private synchronized String ask(String request) throws IOException {
    requests.println(request);
    String answer = answers.readLine();
    if (answer == null) {
      throw new IOException("the cluster's child JVM has stopped; the end of " + logFile + ":\n"
          + tail());
    }
    return answer;
  }

  @Override
  public long dataNodeCounter(String field) throws IOException {
    return Long.parseLong(ask(ClusterProcess.COUNTER + " " + field));
  }

  @Override
  public long[] namesystemTotals() throws IOException {
    String[] totals = ask(ClusterProcess.TOTALS).split(" ");
    return new long[] {Long.parseLong(totals[0]), Long.parseLong(totals[1])};
  }

  /** The child JVM. */
  ProcessHandle process() {
    return process.toHandle();
  }

  @Override
  public int dataNodes() {
    return dataNodes;
  }

  /** Asks the child to stop and waits for it; kills it if it does not stop in a minute. */
  @Override
  public void close() throws IOException {
    requests.close(); // end of input: the child shuts its cluster down and exits
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(stopOnExit);
      } catch (IllegalStateException e) {
        // already exiting: the hook runs
      }
    }
  }

  @Override
  public File gcLog() {
    return gcLog;
  }
}
