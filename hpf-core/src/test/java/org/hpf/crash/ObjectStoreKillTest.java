package org.hpf.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.s3a.S3AFileSystem;
import org.hpf.NoCommittedGenerationException;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.read.ArchiveVerifier;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.Recovery;
import org.hpf.internal.write.StoreCommits;
import org.hpf.minicluster.S3Server;
import org.hpf.testing.BucketKeys;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writer processes on s3a:// killed (SIGKILL) at random moments of a create, an append (its
 * part a multipart upload), a delete and a compaction: after recovery the archive holds exactly
 * the members before the change or exactly those after it, verifies, and keeps no object that
 * its kept generations do not name, and no upload is left pending. A create killed before its
 * commit leaves no archive, and recovery removes every object and upload it left.
 */
@Tag("s3")
@Tag("slow")
class ObjectStoreKillTest {
  /** Parts of one member each, so that a change writes and collects many objects. */
  private static final long SMALL_PARTS = StoreChange.SMALL_MEMBERS;
  /** One part for all of a create's or append's members: larger than an upload's part. */
  private static final long ONE_PART = 64 << 20;
  private static final long MAX_DELAY_MILLIS = 1500;

  @TempDir Path tmp;

  @Test
  void changesKilledAtRandomMomentsRecoverToBeforeOrAfter() throws Exception {
    S3Server server = S3Server.shared();
    Configuration conf = server.configuration();
    // Uploads of 5 MiB parts (S3's least): a part of the archive becomes a multipart upload.
    conf.setLong("fs.s3a.multipart.size", 5 << 20);
    Path site = tmp.resolve("s3-site.xml");
    try (java.io.OutputStream out = Files.newOutputStream(site)) {
      conf.writeXml(out);
    }
    long seed = System.nanoTime();
    Random random = new Random(seed);
    System.out.println("ObjectStoreKillTest seed " + seed);
    List<String> outcomes = new ArrayList<>();
    try (S3AFileSystem s3 = (S3AFileSystem) FileSystem.newInstance(
        server.bucketRoot().toUri(), conf)) {
      int run = 0;
      for (String change : List.of("create", "append", "delete", "compact")) {
        // The append writes one part of all its members: a multipart upload.
        boolean multipart = change.equals("append");
        String label = change + (multipart ? " (one part, a multipart upload)" : "");
        long maxDelay = MAX_DELAY_MILLIS;
        for (int attempt = 1; attempt <= 2; attempt++) {
          org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path(
              server.bucketRoot(), "killed/" + change + "-" + run++ + ".hpf");
          Run result = killAndRecover(s3, site, archive, change,
              multipart ? ONE_PART : SMALL_PARTS,
              multipart ? StoreChange.LARGE_MEMBERS : StoreChange.SMALL_MEMBERS,
              (long) (random.nextDouble() * maxDelay));
          outcomes.add(label + ": " + result.outcome());
          if (result.ranMillis() < 0) {
            break;
          }
          // It ended before the moment drawn (a fast machine): again, killed within its time.
          maxDelay = Math.max(1, result.ranMillis());
        }
      }
    }
    System.out.println("ObjectStoreKillTest outcomes:\n  " + String.join("\n  ", outcomes));
    assertThat(outcomes).as("runs killed before they ended").anyMatch(o -> o.contains("killed"));
  }

  /** How a run went; {@code ranMillis}, how long a change that ended by itself ran, or -1. */
  private record Run(String outcome, long ranMillis) {}

  private Run killAndRecover(S3AFileSystem s3, Path site, org.apache.hadoop.fs.Path archive,
      String change, long partSize, int memberBytes, long delay) throws Exception {
    Map<String, byte[]> before = new LinkedHashMap<>();
    if (!change.equals("create")) {
      try (ArchiveWriter writer = ArchiveWriter.create(s3.getConf(), archive,
          StoreChange.options(SMALL_PARTS))) {
        for (int i = 0; i < StoreChange.ADDED; i++) {
          String name = "base/m-" + i;
          writer.add(name, StoreChange.bytes(name, StoreChange.SMALL_MEMBERS), 0);
          before.put(name, StoreChange.bytes(name, StoreChange.SMALL_MEMBERS));
        }
        writer.commit();
      }
    }
    Map<String, byte[]> after = new LinkedHashMap<>(before);
    switch (change) {
      case "create", "append" -> {
        String prefix = change.equals("create") ? "created" : "appended";
        for (int i = 0; i < StoreChange.ADDED; i++) {
          after.put(prefix + "/m-" + i, StoreChange.bytes(prefix + "/m-" + i, memberBytes));
        }
      }
      case "delete" -> StoreChange.deleted().forEach(after::remove);
      default -> { }
    }

    Path opened = tmp.resolve("opened-" + System.nanoTime());
    Process writer = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        // A short-lived process: start fast.
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), StoreChange.class.getName(),
        site.toString(), archive.toString(), change, String.valueOf(partSize),
        String.valueOf(memberBytes), opened.toString())
        .redirectErrorStream(true).redirectOutput(tmp.resolve("out-" + archive.getName()
            + ".txt").toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    // The child says it has opened the archive by creating a file: poll for it.
    while (!Files.exists(opened) && writer.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    long start = System.nanoTime();
    boolean ended = writer.waitFor(delay, TimeUnit.MILLISECONDS);
    long ran = ended ? TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) : -1;
    String outcome;
    if (ended) {
      assertThat(writer.exitValue()).as(Files.readString(tmp.resolve("out-" + archive.getName()
          + ".txt"))).isZero();
      outcome = "ended by itself after " + ran + " ms";
    } else {
      writer.destroyForcibly(); // SIGKILL
      assertThat(writer.waitFor(60, TimeUnit.SECONDS)).isTrue();
      outcome = "killed " + delay + " ms after opening";
    }

    String prefix = s3.pathToKey(archive) + "/";
    if (change.equals("create") && !s3.exists(new org.apache.hadoop.fs.Path(archive,
        Manifest.fileName(1)))) {
      // Never committed: no archive, and recovery removes what the create left.
      if (s3.exists(archive)) {
        assertThrows(NoCommittedGenerationException.class,
            () -> HpfReader.open(s3, archive, ReaderOptions.defaults()));
        Recovery.Report report = ArchiveWriter.recover(s3.getConf(), archive,
            StoreChange.options(partSize));
        assertThat(report.removedCreate()).isTrue();
      }
      assertThat(s3.exists(archive)).as("the archive's directory").isFalse();
      assertThat(s3.listMultipartUploads(prefix)).as("pending uploads").isEmpty();
      return new Run(outcome + ", not committed, removed", ran);
    }
    ArchiveWriter.recover(s3.getConf(), archive, StoreChange.options(partSize));
    Map<String, byte[]> found = members(s3, archive);
    boolean isAfter = found.keySet().equals(after.keySet());
    assertThat(isAfter || found.keySet().equals(before.keySet()))
        .as(change + ": members after recovery " + found.keySet()).isTrue();
    for (Map.Entry<String, byte[]> member : found.entrySet()) {
      assertArrayEquals((isAfter ? after : before).get(member.getKey()), member.getValue(),
          member.getKey());
    }
    ArchiveStorage storage = HdfsIntegration.storage(s3, archive);
    ArchiveVerifier.Report report = ArchiveVerifier.verify(storage, ReaderOptions.defaults(),
        bytes -> {});
    assertThat(report.ok()).as(report.problems().toString()).isTrue();
    assertThat(BucketKeys.files(s3, archive)).as("objects after recovery")
        .isEqualTo(named(storage));
    assertThat(s3.listMultipartUploads(prefix)).as("pending uploads").isEmpty();
    return new Run(outcome + ", " + (isAfter ? "after" : "before"), ran);
  }

  private static Map<String, byte[]> members(FileSystem fs, org.apache.hadoop.fs.Path archive)
      throws IOException {
    Map<String, byte[]> members = new LinkedHashMap<>();
    try (HpfReader reader = HpfReader.open(fs, archive, ReaderOptions.defaults());
        java.util.stream.Stream<String> names = reader.list()) {
      for (String name : (Iterable<String>) names::iterator) {
        members.put(name, reader.get(name));
      }
    }
    return members;
  }

  /** The manifests there and every file they name. */
  private static Set<String> named(ArchiveStorage storage) throws IOException {
    Set<String> named = new TreeSet<>();
    for (String file : storage.list(Manifest.DIR)) {
      long generation = Manifest.generationOf(file);
      named.add(Manifest.DIR + "/" + file);
      named.addAll(StoreCommits.filesOf(storage, generation));
    }
    return named;
  }
}
