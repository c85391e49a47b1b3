package org.hpf.internal.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.fs.LocalJobs;
import org.hpf.internal.io.LocalModes;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.ModeRecordingLocalFileSystem;
import org.hpf.testing.OtherUser;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files the local job runner writes for the archive job (the job's whole configuration, its
 * splits, its tasks' work) are the archiving user's alone from the moment each is created, and
 * go when the job ends.
 */
@Tag("slow")
class LocalJobWorkTest {
  /** What each task found while it ran: paths open to others, and paths nobody read. */
  private static final Queue<String> FOUND = new ConcurrentLinkedQueue<>();
  private static final Queue<String> TRIED = new ConcurrentLinkedQueue<>();
  private static final List<java.nio.file.Path> WATCHED = new ArrayList<>();

  @TempDir java.nio.file.Path tmp;

  @Test
  void theLocalRunnersFilesAreTheArchivingUsersAloneWhileTheJobRuns() throws Exception {
    LocalModes.set(tmp, 0755);
    // Where Hadoop puts the runner's files unless told (hadoop.tmp.dir, /tmp/hadoop-USER), and
    // the writer's scratch directory (java.io.tmpdir): both open to all.
    java.nio.file.Path open = Files.createDirectory(tmp.resolve("hadoop-tmp"));
    java.nio.file.Path scratch = Files.createDirectory(tmp.resolve("scratch"));
    LocalModes.set(open, 0777);
    LocalModes.set(scratch, 0777);
    Configuration conf = LocalJobs.configure(new Configuration());
    conf.set("hadoop.tmp.dir", open.resolve("tmp").toString());
    conf.set("mapreduce.cluster.local.dir", open.resolve("local").toString());
    conf.set("mapreduce.jobtracker.staging.root.dir", open.resolve("staging").toString());
    conf.set("fs.file.impl", ModeRecordingLocalFileSystem.class.getName());
    conf.setBoolean("fs.file.impl.disable.cache", true);
    FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
    Path sources = new Path(tmp.resolve("sources").toUri());
    Map<String, byte[]> files = JobSources.write(fs, sources, "s", 60, 3);
    Path archive = new Path(tmp.resolve("a.hpf").toUri());
    WriterOptions options = WriterOptions.builder().settings(s -> s.threads(2)
        .scratchDirectory(scratch)).build();
    FOUND.clear();
    TRIED.clear();
    WATCHED.clear();
    WATCHED.addAll(List.of(open, scratch));
    try (ModeRecordingLocalFileSystem.Recording recording =
        ModeRecordingLocalFileSystem.watch(open, scratch)) {
      JobDriver.run(conf, List.of(sources), archive, false, options,
          job -> job.setMapperClass(Probing.class));
      assertEquals(List.of(), recording.open(), "created or changed open to others");
      assertTrue(recording.seen().stream().anyMatch(p -> p.matches(".*/job_[^/]*\\.xml")),
          "the runner's copy of the job's configuration is watched: " + recording.seen());
    }
    assertFalse(TRIED.isEmpty(), "the tasks looked");
    assertEquals(List.of(), List.copyOf(FOUND), "open to others while the tasks ran");
    JobSources.assertHolds(conf, archive, new java.util.TreeMap<>(files));
    try (Stream<java.nio.file.Path> left = Files.list(scratch)) {
      assertEquals(List.of(), left.toList(), "the job's directory is removed");
    }
  }

  /**
   * A map task that, at its first source, looks at every local file and directory the job has:
   * none may be open to others, and where the tests run as root, the user nobody tries to read
   * each one.
   */
  public static final class Probing extends MergeMapper {
    @Override
    protected void merged(Context context, long sources) throws IOException {
      super.merged(context, sources);
      if (sources != 1) {
        return;
      }
      for (java.nio.file.Path root : WATCHED) {
        FOUND.addAll(ModeRecordingLocalFileSystem.reachable(root));
        try (Stream<java.nio.file.Path> paths = Files.walk(root)) {
          for (java.nio.file.Path p : paths.filter(p -> !p.equals(root)).toList()) {
            TRIED.add(p.toString());
            if (OtherUser.available() && OtherUser.canRead(p)) {
              FOUND.add("nobody read " + p);
            }
          }
        } catch (java.io.UncheckedIOException e) {
          // a file the job removed while it was walked
        }
      }
    }
  }
}
