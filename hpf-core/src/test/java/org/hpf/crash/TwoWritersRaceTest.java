package org.hpf.crash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.hpf.internal.read.ArchiveVerifier;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;
import org.hpf.minicluster.S3Server;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two writer processes (not threads: the lock is between processes) race for one archive, round
 * after round, started together: exactly one gets the lock each round (on an object store,
 * where both get past it, exactly one commits), and the archive ends up with exactly the
 * winners' members, intact.
 */
@Tag("slow")
class TwoWritersRaceTest {
  private static final int ROUNDS = 40;
  private static final int STORE_ROUNDS = 20;

  @TempDir Path tmp;

  @Test
  void onTheLocalFileSystem() throws Exception {
    race(new Configuration(), new org.apache.hadoop.fs.Path(tmp.resolve("race.hpf").toUri()));
  }

  @Test
  @Tag("hdfs")
  void onHdfs() throws Exception {
    MiniDfs dfs = MiniDfs.shared();
    race(dfs.configuration(), dfs.fileSystem().makeQualified(
        new org.apache.hadoop.fs.Path("/race-" + System.nanoTime() + ".hpf")));
  }

  /**
   * On an object store the lock only keeps honest writers apart: here each round one contender
   * opens the archive and the other breaks its lock and opens it too, then both commit at the
   * same moment. The store's conditional create lets exactly one commit; the other is told so
   * and leaves nothing the archive names.
   */
  @Test
  @Tag("s3")
  void onAnObjectStorePastTheLock() throws Exception {
    S3Server server = S3Server.shared();
    Configuration conf = server.configuration();
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path(server.bucketRoot(),
        "race-" + System.nanoTime() + ".hpf");
    seed(conf, archive);
    Path control = Files.createDirectories(tmp.resolve("control-" + System.nanoTime()));
    Path site = control.resolve("s3-site.xml");
    try (java.io.OutputStream out = Files.newOutputStream(site)) {
      conf.writeXml(out);
    }
    List<String> names = List.of("a", "b");
    List<Process> contenders = new ArrayList<>();
    for (String name : names) {
      contenders.add(start(CommitContender.class, control, name, site.toString(),
          archive.toString(), String.valueOf(STORE_ROUNDS), control.toString(), name));
    }
    try {
      List<String> winners = new ArrayList<>();
      for (int round = 0; round < STORE_ROUNDS; round++) {
        String first = names.get(round % 2);
        String second = names.get(1 - round % 2);
        LockContender.report(control, "open-" + round + "-" + first, "open");
        assertEquals("ok", awaitReport(control.resolve("opened-" + first + "-" + round),
            contenders), "round " + round + ": " + first + " opens");
        LockContender.report(control, "open-" + round + "-" + second, "steal");
        assertEquals("ok", awaitReport(control.resolve("opened-" + second + "-" + round),
            contenders), "round " + round + ": " + second + " breaks the lock and opens");
        LockContender.report(control, "commit-" + round, "");
        String a = awaitReport(control.resolve("result-a-" + round), contenders);
        String b = awaitReport(control.resolve("result-b-" + round), contenders);
        // Exactly one commits. The other says it did not: the thief lost the commit, or the
        // first opener, whose lock the thief broke, says its lock was lost.
        String winner = a.equals("committed") ? "a" : "b";
        String lost = winner.equals("a") ? b : a;
        assertTrue(List.of(a, b).contains("committed") && (lost.equals("conflict")
            || lost.equals("lock lost") && !winner.equals(first)),
            "round " + round + ": a " + a + ", b " + b);
        winners.add(winner);
        for (String name : names) {
          awaitReport(control.resolve("closed-" + name + "-" + round), contenders);
        }
      }
      for (Process process : contenders) {
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue());
      }
      assertWinnersOnly(conf, archive, winners);
    } finally {
      for (Process process : contenders) {
        process.destroyForcibly();
      }
    }
  }

  private static void seed(Configuration conf, org.apache.hadoop.fs.Path archive)
      throws Exception {
    try (ArchiveWriter writer = ArchiveWriter.create(conf, archive, WriterOptions.defaults())) {
      writer.add("seed", new byte[] {1}, 0);
      writer.commit();
    }
  }

  /**
   * The archive holds the seed and each round's winner's member, nothing of a loser, and
   * verifies.
   */
  private static void assertWinnersOnly(Configuration conf, org.apache.hadoop.fs.Path archive,
      List<String> winners) throws Exception {
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      assertEquals(winners.size() + 1, reader.manifest().fileCount());
      for (int round = 0; round < winners.size(); round++) {
        String winner = winners.get(round);
        assertArrayEquals((winner + " " + round).getBytes(StandardCharsets.UTF_8),
            reader.get(winner + "/round-" + round));
      }
    }
    ArchiveVerifier.Report report = ArchiveVerifier.verify(
        org.hpf.internal.hdfs.HdfsIntegration.storage(archive.getFileSystem(conf), archive),
        org.hpf.internal.read.ReaderOptions.defaults(), bytes -> {});
    assertTrue(report.ok(), report.problems().toString());
  }

  private void race(Configuration conf, org.apache.hadoop.fs.Path archive) throws Exception {
    seed(conf, archive);
    Path control = Files.createDirectories(tmp.resolve("control-" + System.nanoTime()));
    List<Process> contenders = new ArrayList<>();
    for (String name : List.of("a", "b")) {
      contenders.add(start(LockContender.class, control, name, archive.toString(),
          String.valueOf(ROUNDS), control.toString(), name));
    }
    try {
      List<String> winners = new ArrayList<>();
      for (int round = 0; round < ROUNDS; round++) {
        LockContender.report(control, "go-" + round, "");
        String a = awaitReport(control.resolve("result-a-" + round), contenders);
        String b = awaitReport(control.resolve("result-b-" + round), contenders);
        assertEquals(List.of("locked", "won"), java.util.stream.Stream.of(a, b).sorted().toList(),
            "round " + round + ": a " + a
            + ", b " + b);
        LockContender.report(control, "commit-" + round, "");
        winners.add(awaitReport(control.resolve("committed-" + round), contenders));
      }
      for (Process process : contenders) {
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue());
      }
      try (HpfReader reader = HpfReader.open(conf, archive)) {
        assertEquals(ROUNDS + 1, reader.manifest().generation());
      }
      assertWinnersOnly(conf, archive, winners);
    } finally {
      for (Process process : contenders) {
        process.destroyForcibly();
      }
    }
  }

  /**
   * Starts {@code main} with {@code args} in a JVM of its own, its output in the control dir.
   * The contenders mostly load classes and wait on their store: the client compiler alone and
   * the serial collector spend less CPU on them.
   */
  private static Process start(Class<?> main, Path control, String name, String... args)
      throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(control.resolve("out-" + name + ".txt").toFile())
        .start();
  }

  private static String awaitReport(Path file, List<Process> contenders) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!Files.exists(file)) {
      for (Process process : contenders) {
        if (!process.isAlive() && process.exitValue() != 0) {
          throw new AssertionError("a contender failed: " + Files.readString(
              file.getParent().resolve("out-" + (contenders.indexOf(process) == 0 ? "a" : "b")
                  + ".txt")));
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no " + file.getFileName() + " after 120 s");
      }
      Thread.sleep(1);
    }
    return Files.readString(file);
  }
}
