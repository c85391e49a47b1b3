package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer process stopped (SIGSTOP) mid-append on HDFS, past the lease's soft limit (shortened
 * to seconds on the test's NameNode), while another {@code hpf append} comes:
 *
 * <ul>
 *   <li>from another host (its own host name and pid namespace): only the lease can tell, and
 *       it says the stopped writer is gone; the newcomer takes over, recovers and commits. The
 *       stopped writer, continued, fails with "lock lost" (exit code 8) and commits nothing;
 *   <li>from the same host: the stopped writer's process is alive there, which no lease
 *       overrules; the newcomer is refused (exit code 7) and the continued writer commits.
 * </ul>
 *
 * Either way the archive verifies, with every member of every change reported committed.
 */
@Tag("hdfs")
@Tag("slow")
class StalledWriterTest {
  private static final long SOFT_LIMIT_MS = 2_000;
  /** The DataNodes' socket timeout on the cluster of the pipeline test. */
  private static final int PIPELINE_TIMEOUT_MS = 3_000;
  /** Sources of the pipeline test's append: enough that it is still writing when stopped. */
  private static final int FILES = 2_000;
  /** HDFS's defaults, restored for the other tests on the shared cluster. */
  private static final long DEFAULT_SOFT_LIMIT_MS = 60_000;
  private static final long DEFAULT_HARD_LIMIT_MS = 1_200_000;

  /**
   * Runs a command as if on another host: its own host name (UTS namespace) and its own pid
   * namespace (on one machine, the writer's pid would tell that it lives).
   */
  private static final List<String> OTHER_HOST = List.of("unshare", "--uts", "--pid",
      "--fork", "sh", "-c", "hostname other-host && exec \"$0\" \"$@\"");

  private static MiniDfs dfs;

  @TempDir Path dir;

  @BeforeAll
  static void cluster() throws Exception {
    // Another host is other namespaces: unshare needs root, as CI has. Not a skip.
    List<String> check = new ArrayList<>(OTHER_HOST.subList(0, OTHER_HOST.size() - 3));
    check.add("true");
    Process unshare = new ProcessBuilder(check).redirectErrorStream(true).start();
    String said = new String(unshare.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, unshare.waitFor(), "this test needs `" + String.join(" ", check)
        + "` (util-linux, run as root) to start a writer as if on another host: " + said);
    dfs = MiniDfs.shared();
    dfs.cluster().setLeasePeriod(SOFT_LIMIT_MS, DEFAULT_HARD_LIMIT_MS);
  }

  @AfterAll
  static void restoreLeases() {
    if (dfs != null) {
      dfs.cluster().setLeasePeriod(DEFAULT_SOFT_LIMIT_MS, DEFAULT_HARD_LIMIT_MS);
    }
  }

  @Test
  void aWriterFromAnotherHostTakesOverAndTheStalledOneLosesItsLock() throws Exception {
    String archive = newArchive("other-host");
    Path sources = sources("late");
    Run[] newcomer = new Run[1];
    Run stalled = stallWhile(archive,
        () -> newcomer[0] = run(OTHER_HOST, "append", archive, sources.toString()));
    assertEquals(ExitCodes.OK, newcomer[0].code, newcomer[0]::toString);
    assertEquals(ExitCodes.LOCK_LOST, stalled.code, stalled::toString);
    assertTrue(stalled.err.contains("lock lost"), stalled::toString);
    verified(archive);
    assertMembers(archive, sources);
  }

  @Test
  void aWriterOnTheSameHostIsRefusedWhileTheStalledOneLives() throws Exception {
    String archive = newArchive("same-host");
    Path sources = sources("refused");
    Run[] newcomer = new Run[1];
    Run stalled = stallWhile(archive,
        () -> newcomer[0] = run(List.of(), "append", archive, sources.toString()));
    assertEquals(ExitCodes.LOCKED, newcomer[0].code, newcomer[0]::toString);
    assertTrue(newcomer[0].err.contains("is locked by append by "), newcomer[0]::toString);
    assertEquals(ExitCodes.OK, stalled.code, stalled::toString);
    Matcher committed = Pattern.compile("committed (\\d+) members in generation 2")
        .matcher(stalled.out);
    assertTrue(committed.find(), stalled::toString);
    verified(archive);
    try (HpfReader reader = HpfReader.open(dfs.configuration(),
        new org.apache.hadoop.fs.Path(archive))) {
      int count = Integer.parseInt(committed.group(1));
      assertEquals(1 + count, reader.manifest().fileCount());
      for (int i = 0; i < count; i++) {
        assertArrayEquals(StallingWriter.content(i), reader.get(StallingWriter.member(i)));
      }
    }
  }

  /**
   * A real {@code hpf append} stopped while it writes a part, past the DataNodes' socket timeout
   * (shortened to seconds on a cluster of its own, so they drop its pipelines and its writes
   * fail once it goes on) and past the lease's soft limit. Whatever the pipeline errors make of
   * the change, the exit code must say what the archive shows: 0 and every member there, or a
   * documented failure, one line, and none of them there.
   */
  @Test
  void anAppendStoppedPastThePipelineTimeoutReportsWhatTheArchiveShows() throws Exception {
    Configuration conf = MiniDfs.testConfiguration();
    conf.setInt("dfs.client.socket-timeout", PIPELINE_TIMEOUT_MS);
    conf.setInt("dfs.datanode.socket.write.timeout", PIPELINE_TIMEOUT_MS);
    java.io.File base = dir.resolve("pipeline-cluster").toFile();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.getAbsolutePath());
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, base).numDataNodes(3).build();
    try {
      cluster.waitActive();
      cluster.setLeasePeriod(SOFT_LIMIT_MS, DEFAULT_HARD_LIMIT_MS);
      Configuration client = new Configuration(cluster.getConfiguration(0));
      client.set(FileSystem.FS_DEFAULT_NAME_KEY, cluster.getURI().toString());
      FileSystem fs = cluster.getFileSystem();
      org.apache.hadoop.fs.Path archive = fs.makeQualified(
          new org.apache.hadoop.fs.Path("/stalled/pipeline.hpf"));
      try (ArchiveWriter writer = ArchiveWriter.create(client, archive,
          WriterOptions.defaults())) {
        writer.add("seed", new byte[] {7}, 0);
        writer.commit();
      }
      Path sources = Files.createDirectories(dir.resolve("sources-pipeline"));
      java.util.Random random = new java.util.Random(42);
      for (int i = 0; i < FILES; i++) {
        byte[] bytes = new byte[4_096];
        random.nextBytes(bytes);
        Files.write(sources.resolve("p-" + i), bytes);
      }
      List<String> command = java(HpfCommand.class.getName(), "append", "-q",
          archive.toString(), sources.toString());
      Path out = dir.resolve("pipeline.out");
      Path err = dir.resolve("pipeline.err");
      Process append = new ProcessBuilder(command).redirectOutput(out.toFile())
          .redirectError(err.toFile()).start();
      try {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!writingAPart(fs, archive)) {
          assertTrue(append.isAlive(), () -> "the append ended before it wrote a part: "
              + read(out) + read(err));
          assertTrue(System.nanoTime() < deadline, "the append wrote no part in 120 s");
          Thread.sleep(10); // polls the NameNode for the append's part; bounded above
        }
        signal("STOP", append);
        // The premise of the test: past the DataNodes' socket timeout and the soft limit.
        Thread.sleep(Math.max(SOFT_LIMIT_MS, PIPELINE_TIMEOUT_MS) * 2L);
        signal("CONT", append);
        assertTrue(append.waitFor(120, TimeUnit.SECONDS), "the append did not end");
      } finally {
        append.destroyForcibly();
      }
      Run ended = new Run(append.exitValue(), read(out), read(err));
      assertFalse(ended.err.contains("\tat ") || ended.err.contains("Self-suppression")
          || ended.err.contains("RemoteException"), ended::toString);
      Cli.Result verify = Cli.run("verify", archive.toString());
      try (HpfReader reader = HpfReader.open(client, archive)) {
        if (ended.code == ExitCodes.OK) {
          assertEquals(FILES + 1, reader.manifest().fileCount(), ended::toString);
          for (int i = 0; i < FILES; i += 97) {
            assertArrayEquals(Files.readAllBytes(sources.resolve("p-" + i)),
                reader.get("p-" + i), ended::toString);
          }
        } else {
          assertEquals(1, reader.manifest().fileCount(), ended::toString);
          assertTrue(ended.err.startsWith("hpf: ") && ended.err.strip().lines().count() == 1,
              ended::toString);
        }
      }
      assertEquals(ExitCodes.OK, verify.code(), verify::toString);
      System.out.println("an append stopped past the pipeline timeout: " + ended);
    } finally {
      cluster.shutdown(true);
    }
  }

  /** True once a part file of generation 2 (the append's, id 1 and up) is on the NameNode. */
  private static boolean writingAPart(FileSystem fs, org.apache.hadoop.fs.Path archive)
      throws IOException {
    for (org.apache.hadoop.fs.FileStatus status : fs.listStatus(archive)) {
      String name = status.getPath().getName();
      if (name.startsWith("part-") && !name.equals("part-000000")) {
        return true;
      }
    }
    return false;
  }

  /** Exit code and output of a process. */
  private record Run(int code, String out, String err) {
    @Override
    public String toString() {
      return "exit " + code + "\n--- stdout:\n" + out + "\n--- stderr:\n" + err;
    }
  }

  /** Something done while the writer is stopped. */
  @FunctionalInterface
  private interface WhileStopped {
    void run() throws Exception;
  }

  /**
   * Starts a {@link StallingWriter}, stops it once it journaled members, waits past the soft
   * limit, runs {@code meanwhile}, continues it, tells it to finish and returns how it ended.
   */
  private Run stallWhile(String archive, WhileStopped meanwhile) throws Exception {
    Path control = Files.createDirectories(dir.resolve("control"));
    Path out = dir.resolve("writer.out");
    Path err = dir.resolve("writer.err");
    Process writer = new ProcessBuilder(java(StallingWriter.class.getName(), archive,
        control.toString())).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!Files.exists(control.resolve("journaled"))) {
        assertTrue(writer.isAlive(), () -> "the writer ended: " + read(out) + read(err));
        assertTrue(System.nanoTime() < deadline, "the writer journaled nothing in 120 s");
        Thread.sleep(20); // polls for the writer's marker file; the deadline above bounds it
      }
      signal("STOP", writer);
      // The premise of the test: the stopped writer's lease must pass the (shortened) soft limit.
      Thread.sleep(SOFT_LIMIT_MS + 1_500);
      meanwhile.run();
      signal("CONT", writer);
      Files.writeString(control.resolve("finish"), "");
      assertTrue(writer.waitFor(120, TimeUnit.SECONDS), "the writer did not end");
      return new Run(writer.exitValue(), read(out), read(err));
    } finally {
      writer.destroyForcibly();
    }
  }

  private static void signal(String signal, Process process) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid()))
        .inheritIO().start();
    assertEquals(0, kill.waitFor(), "kill -" + signal);
  }

  /** Runs {@code hpf args} as its own process, behind {@code prefix}. */
  private Run run(List<String> prefix, String... args) throws Exception {
    List<String> command = new ArrayList<>(prefix);
    List<String> hpf = new ArrayList<>(List.of(HpfCommand.class.getName()));
    hpf.addAll(List.of(args));
    command.addAll(java(hpf.toArray(new String[0])));
    Path out = dir.resolve("hpf-" + System.nanoTime() + ".out");
    Path err = dir.resolve("hpf-" + System.nanoTime() + ".err");
    Process process = new ProcessBuilder(command).redirectOutput(out.toFile())
        .redirectError(err.toFile()).start();
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), "hpf " + String.join(" ", args));
    return new Run(process.exitValue(), read(out), read(err));
  }

  private static List<String> java(String... mainAndArgs) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path")));
    command.addAll(List.of(mainAndArgs));
    return command;
  }

  private static String newArchive(String name) throws Exception {
    Configuration conf = dfs.configuration();
    org.apache.hadoop.fs.Path archive = dfs.fileSystem().makeQualified(
        new org.apache.hadoop.fs.Path("/stalled/" + name + "-" + System.nanoTime() + ".hpf"));
    try (ArchiveWriter writer = ArchiveWriter.create(conf, archive, WriterOptions.defaults())) {
      writer.add("seed", new byte[] {7}, 0);
      writer.commit();
    }
    return archive.toString();
  }

  private Path sources(String name) throws IOException {
    Path sources = Files.createDirectories(dir.resolve("sources-" + name));
    for (int i = 0; i < 3; i++) {
      Files.writeString(sources.resolve(name + "-" + i + ".txt"), name + " " + i);
    }
    return sources;
  }

  private static void verified(String archive) {
    Cli.Result verify = Cli.run("verify", archive);
    assertEquals(ExitCodes.OK, verify.code(), verify::toString);
  }

  /** Every file below {@code sources} is a member with its bytes. */
  private static void assertMembers(String archive, Path sources) throws Exception {
    try (HpfReader reader = HpfReader.open(dfs.configuration(),
        new org.apache.hadoop.fs.Path(archive));
        var files = Files.list(sources)) {
      for (Path file : files.toList()) {
        assertArrayEquals(Files.readAllBytes(file),
            reader.get(file.getFileName().toString()));
      }
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return e.toString();
    }
  }
}
