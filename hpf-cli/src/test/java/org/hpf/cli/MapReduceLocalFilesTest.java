package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.hpf.internal.io.LocalModes;
import org.hpf.testing.ModeRecordingLocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hpf create --mapreduce} and {@code append --mapreduce} on the local job runner: the
 * files the runner writes in the hpf process are its user's alone from the moment each is
 * created, in directories open to all, and none is left behind.
 */
class MapReduceLocalFilesTest {
  @TempDir Path dir;

  @Test
  void theJobsLocalFilesAreTheUsersAloneAndGoWithTheJob() throws IOException {
    LocalModes.set(dir, 0755);
    // Hadoop's default place (hadoop.tmp.dir, /tmp/hadoop-USER) and the scratch directory
    // (java.io.tmpdir), both open to all, as /tmp is.
    Path open = Files.createDirectory(dir.resolve("hadoop-tmp"));
    Path scratch = Files.createDirectory(dir.resolve("scratch"));
    LocalModes.set(open, 0777);
    LocalModes.set(scratch, 0777);
    Path src = dir.resolve("src");
    TestTrees.write(src.resolve("a"), 12, 5);
    Path more = dir.resolve("more");
    TestTrees.write(more.resolve("b"), 7, 6);
    String archive = dir.resolve("logs.hpf").toString();
    List<String> common = List.of("-q", "--scratch-dir", scratch.toString(),
        "-D", "mapreduce.framework.name=local",
        "-D", "hadoop.tmp.dir=" + open.resolve("tmp"),
        "-D", "mapreduce.cluster.local.dir=" + open.resolve("local"),
        "-D", "mapreduce.jobtracker.staging.root.dir=" + open.resolve("staging"),
        "-D", "mapreduce.client.completion.pollinterval=20",
        "-D", "fs.file.impl=" + ModeRecordingLocalFileSystem.class.getName(),
        "-D", "fs.file.impl.disable.cache=true");
    try (ModeRecordingLocalFileSystem.Recording recording =
        ModeRecordingLocalFileSystem.watch(open, scratch)) {
      run("create", common, src.toString(), archive);
      run("append", common, archive, more.toString());
      assertEquals(List.of(), recording.open(), "created or changed open to others");
      assertTrue(recording.seen().stream().anyMatch(p -> p.matches(".*/job_[^/]*\\.xml")),
          "the runner's copy of the job's configuration is watched: " + recording.seen());
    }
    for (Path root : List.of(open, scratch)) {
      try (Stream<Path> left = Files.walk(root)) {
        assertEquals(List.of(root), left.toList(), "left behind by the jobs");
      }
    }
    Cli.Result ls = Cli.run("ls", archive);
    assertEquals(0, ls.code(), ls::toString);
    assertEquals(19, ls.out().lines().count(), ls::toString);
  }

  private static void run(String command, List<String> common, String... args) {
    List<String> all = new java.util.ArrayList<>(List.of(command, "--mapreduce"));
    all.addAll(common);
    all.addAll(List.of(args));
    Cli.Result result = Cli.run(all.toArray(new String[0]));
    assertEquals(0, result.code(), result::toString);
  }
}
