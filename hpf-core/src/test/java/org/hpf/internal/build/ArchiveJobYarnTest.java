package org.hpf.internal.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;
import org.hpf.mapreduce.ArchiveJobException;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The archive job on Hadoop's own in-process clusters: HDFS (MiniDFSCluster) and YARN with
 * MapReduce (MiniMRYarnCluster), task attempts in JVMs of their own.
 */
@Tag("hdfs")
@Tag("slow")
class ArchiveJobYarnTest {
  /**
   * Container JVMs live seconds and mostly load classes: the client compiler alone and the serial
   * collector spend less of two cores on them than the optimizing compiler and G1.
   */
  private static final String QUICK_START = " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
  private static MiniMRYarnCluster yarn;
  private static Configuration conf;
  private static FileSystem fs;

  @BeforeAll
  static void startClusters() throws IOException {
    Configuration base = new Configuration(MiniDfs.shared().configuration());
    base.setInt("yarn.scheduler.minimum-allocation-mb", 128);
    base.setInt("yarn.nodemanager.resource.memory-mb", 3072);
    base.setBoolean("yarn.nodemanager.vmem-check-enabled", false);
    base.setInt(MRJobConfig.MAP_MEMORY_MB, 384);
    base.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx256m" + QUICK_START);
    base.setInt(MRJobConfig.MR_AM_VMEM_MB, 640);
    base.set(MRJobConfig.MR_AM_COMMAND_OPTS, "-Xmx448m" + QUICK_START);
    base.set(MRJobConfig.MR_AM_STAGING_DIR, "/yarn-staging");
    // Containers are handed out, and their ends learned, at heartbeats (1 s by default): on one
    // machine a tenth of that is no load and takes seconds off each job, attempt and kill.
    base.setLong("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", 100);
    base.setInt(MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, 100);
    yarn = new MiniMRYarnCluster("hpf-archive-job", 1);
    yarn.init(base);
    yarn.start();
    conf = new Configuration(yarn.getConfig());
    // Two tasks per job: enough for one to die or be killed while another commits, and every
    // task is a container JVM to launch on a machine of two cores.
    conf.setLong(JobSettings.SPLIT_FILES, 200);
    fs = FileSystem.get(conf);
  }

  @AfterAll
  static void stopClusters() {
    if (yarn != null) {
      yarn.stop();
    }
  }

  private static WriterOptions options() {
    return WriterOptions.builder().settings(s -> s.threads(2)).layout(l -> l.withPartSize(1 << 20))
        .build();
  }

  /** Stops the first attempt of the second task dead (as a killed container) midway. */
  public static final class HaltingMapper extends MergeMapper {
    @Override
    protected void merged(Context context, long sources) throws IOException {
      super.merged(context, sources);
      if (sources == 150 && context.getTaskAttemptID().getTaskID().getId() == 1
          && context.getTaskAttemptID().getId() == 0) {
        Runtime.getRuntime().halt(137);
      }
    }
  }

  /** Merges slowly, so that a test can kill the job while tasks are still running. */
  public static final class SlowMapper extends MergeMapper {
    @Override
    protected void merged(Context context, long sources) throws IOException {
      super.merged(context, sources);
      if (context.getTaskAttemptID().getTaskID().getId() > 0) {
        try {
          Thread.sleep(150);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  @Test
  void anAttemptKilledMidWriteChangesNothingInTheResult() throws Exception {
    Path root = fs.makeQualified(new Path("/job-exact"));
    Map<String, byte[]> files = JobSources.write(fs, new Path(root, "logs"), "app", 300, 11);
    Map<String, byte[]> more = JobSources.write(fs, new Path(root, "more"), "db", 100, 12);
    Configuration speculative = new Configuration(conf);
    speculative.setBoolean(MRJobConfig.MAP_SPECULATIVE, true);
    Path byJob = fs.makeQualified(new Path("/archives/job.hpf"));
    List<Path> sources = List.of(new Path(root, "logs"), new Path(root, "more"));
    org.apache.hadoop.mapreduce.Job[] submitted = new org.apache.hadoop.mapreduce.Job[1];
    JobDriver.Result result = JobDriver.run(speculative, sources, byJob, false, options(),
        job -> {
          job.setMapperClass(HaltingMapper.class);
          submitted[0] = job;
        });
    assertEquals(400, result.files());
    assertEquals(2, result.maps());
    // The halted attempt really died and was run again.
    assertEquals(1, submitted[0].getCounters()
        .findCounter(org.apache.hadoop.mapreduce.JobCounter.NUM_FAILED_MAPS).getValue());

    files.putAll(more);
    JobSources.assertHolds(conf, byJob, new java.util.TreeMap<>(files));
    Path byCreate = fs.makeQualified(new Path("/archives/create.hpf"));
    ArchiveCreator.create(conf, byCreate, sources, options());
    JobSources.assertSameMembers(conf, byCreate, byJob);
    List<String> entries = JobSources.entries(fs, byJob);
    assertFalse(entries.contains(ArchiveLayout.STAGING), entries.toString());
    assertFalse(entries.contains(ArchiveLayout.LOCK), entries.toString());
  }

  @Test
  void aJobKilledHalfwayLeavesNoArchiveAndASecondRunSucceeds() throws Exception {
    Path root = fs.makeQualified(new Path("/job-killed"));
    Map<String, byte[]> files = JobSources.write(fs, new Path(root, "tree"), "k", 400, 13);
    List<Path> sources = List.of(new Path(root, "tree"));
    Path archive = fs.makeQualified(new Path("/archives/killed.hpf"));
    CompletableFuture<JobDriver.Result> running = CompletableFuture.supplyAsync(() -> {
      try {
        return JobDriver.run(conf, sources, archive, false, options(),
            job -> job.setMapperClass(SlowMapper.class));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    killOnceATaskCommitted(archive, running);
    ExecutionException failed = assertThrows(ExecutionException.class,
        () -> running.get(5, TimeUnit.MINUTES));
    assertTrue(failed.getCause().getCause() instanceof ArchiveJobException,
        String.valueOf(failed.getCause()));
    assertFalse(fs.exists(archive), "a killed create leaves no archive");

    // What the second run must get past is the killed job's leftovers on HDFS, not YARN: the
    // local job runner, against the same HDFS, spares a second application's start-up.
    Configuration local = org.hpf.fs.LocalJobs.configure(new Configuration(conf));
    JobDriver.Result again = JobDriver.run(local, sources, archive, false, options(),
        job -> {});
    assertEquals(400, again.files());
    JobSources.assertHolds(conf, archive, new java.util.TreeMap<>(files));
  }

  /** Waits until a task's work is committed into the staging directory, then kills the job. */
  private static void killOnceATaskCommitted(Path archive,
      CompletableFuture<JobDriver.Result> running) throws Exception {
    Path staging = new Path(archive, ArchiveLayout.STAGING);
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
    while (System.nanoTime() < deadline && !running.isDone()) {
      if (fs.exists(staging) && committedTasks(staging) > 0) {
        Cluster cluster = new Cluster(conf);
        try {
          for (JobStatus status : cluster.getAllJobStatuses()) {
            if (status.getState() == JobStatus.State.RUNNING
                && status.getJobName().contains(archive.toString())) {
              cluster.getJob(status.getJobID()).killJob();
              return;
            }
          }
        } finally {
          cluster.close();
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("the job ended, or committed no task, before it could be killed");
  }

  private static int committedTasks(Path staging) throws IOException {
    int count = 0;
    for (var token : fs.listStatus(staging)) {
      Path tasks = new Path(token.getPath(), "tasks");
      if (fs.exists(tasks)) {
        for (var applicationAttempt : fs.listStatus(tasks)) {
          count += fs.listStatus(applicationAttempt.getPath()).length;
        }
      }
    }
    return count;
  }
}
