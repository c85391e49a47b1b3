package org.hpf.internal.build;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.server.jobtracker.JTConfig;
import org.hpf.internal.io.LocalModes;
import org.hpf.internal.io.UploadBuffers;

/**
 * The local files of a job on the local job runner, in one directory of mode {@code rwx------}
 * (created so, in one step) below the writer's scratch directory, removed when the job ends.
 *
 * <p>The runner writes the job's whole configuration (which may hold an object store's keys),
 * its split files and its tasks' work below {@code hadoop.tmp.dir} ({@code /tmp/hadoop-USER}),
 * creating files {@code rw-r--r--} in directories {@code rwxr-xr-x} and narrowing some of them
 * after: any user of the machine could read them, or open them in that window. hpf cannot
 * choose the modes the runner creates with, so it chooses where: the runner's local directory
 * ({@code mapreduce.cluster.local.dir}), its staging root on a local default file system
 * ({@code mapreduce.jobtracker.staging.root.dir}) and the job commit's scratch directory are
 * inside this one, and so are the upload buffers of the tasks' and the commit's S3A clients
 * ({@link UploadBuffers}).
 */
final class LocalJobWork {
  /** The mode of the job's directory: {@code rwx------}. */
  static final int MODE = 0700;
  static final String PREFIX = "hpf-job-";

  private final Path directory;

  private LocalJobWork(Path directory) {
    this.directory = directory;
  }

  /**
   * For a job that runs on the local job runner, a new private directory below
   * {@code scratch} that {@code jobConf} now names for all the job's local files; null for a job
   * that runs on a cluster, whose hosts manage their own local directories.
   */
  static LocalJobWork configure(Configuration jobConf, Path scratch) throws IOException {
    if (!MRConfig.LOCAL_FRAMEWORK_NAME.equals(jobConf.getTrimmed(MRConfig.FRAMEWORK_NAME,
        MRConfig.LOCAL_FRAMEWORK_NAME))) {
      return null;
    }
    Path dir;
    try {
      Files.createDirectories(scratch, LocalModes.attribute(MODE));
      dir = Files.createTempDirectory(scratch, PREFIX, LocalModes.attribute(MODE));
    } catch (IOException e) {
      throw new IOException("cannot create the job's local directory in the scratch directory "
          + scratch + ": " + e.getMessage(), e);
    }
    jobConf.set(MRConfig.LOCAL_DIR, dir.resolve("local").toString());
    jobConf.set(JobSettings.SCRATCH, dir.resolve("scratch").toString());
    // The runner stages the job on the default file system: a local path only for a local one.
    // hadoop.tmp.dir stays: on another default file system the staging root is below it.
    if ("file".equals(FileSystem.getDefaultUri(jobConf).getScheme())) {
      jobConf.set(JTConfig.JT_STAGING_AREA_ROOT, dir.resolve("staging").toString());
    }
    return new LocalJobWork(dir);
  }

  Path directory() {
    return directory;
  }

  /**
   * Removes the directory and all in it; false where some of it stays. The runner may still be
   * deleting its own files in it when the job is reported complete: both deletes may race.
   */
  boolean remove() {
    UploadBuffers.release(directory); // the tasks' S3A clients, which buffer in it
    return FileUtil.fullyDelete(directory.toFile());
  }
}
