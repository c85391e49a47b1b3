package org.hpf.internal.io;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.ReflectionUtils;
import org.apache.hadoop.util.ShutdownHookManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where S3A keeps the blocks of the files hpf writes on s3a:// until they are uploaded: a
 * directory of mode {@code rwx------} below the writer's scratch directory, created so in one
 * step, unless the user chose one.
 *
 * <p>S3A buffers every block of every file it writes (a part, an index file, a manifest) in a
 * local file ({@code fs.s3a.fast.upload.buffer=disk}, the default), by default in
 * {@code ${hadoop.tmp.dir}/s3a}: it makes that directory {@code rwxr-xr-x} through the local file
 * system and each file with {@code File.createTempFile}, {@code rw-r--r--} under the usual umask.
 * Any user of the machine could read the members' bytes and names there while they upload. hpf
 * cannot choose the modes S3A creates with, so it chooses where.
 *
 * <p>S3A reads the setting when its client starts, and Hadoop caches one client per file system
 * and user, made with the settings of whoever asked first: a directory set later is ignored.
 * So writers get a client of their own, one per file system, user and scratch directory in this
 * process, made with the first writer's settings (as Hadoop's cache does) and kept out of
 * Hadoop's cache (a {@code FileSystem.closeAll} does not close it). It is closed, and its
 * directory removed, when the process exits or its scratch directory is {@link #release}d.
 *
 * <p>Where the user set {@code fs.s3a.buffer.dir} (or a bucket's), or S3A buffers in memory,
 * writers use Hadoop's cached client: that directory must then be private to the user.
 */
public final class UploadBuffers {
  static final String BUFFER_DIR = "fs.s3a.buffer.dir";
  static final String BUFFER = "fs.s3a.fast.upload.buffer";
  /** The mode of a client's directory: {@code rwx------}. */
  static final int MODE = 0700;
  static final String PREFIX = "hpf-s3a-";

  private static final Logger LOG = LoggerFactory.getLogger(UploadBuffers.class);
  /** Before Hadoop's cache closes its clients at exit; the order does not matter. */
  private static final int SHUTDOWN_PRIORITY = FileSystem.SHUTDOWN_HOOK_PRIORITY + 1;

  private record Key(URI fileSystem, UserGroupInformation user, java.nio.file.Path scratch) {}

  private record Client(FileSystem fs, java.nio.file.Path directory) {}

  private static final Map<Key, Client> CLIENTS = new HashMap<>();
  private static boolean hooked;

  private UploadBuffers() {}

  /**
   * The file system a writer writes {@code path} through: on s3a:// with S3A's default buffer
   * directory, a client that buffers below {@code scratch}; else Hadoop's cached one.
   */
  public static FileSystem fileSystem(Path path, Configuration conf, java.nio.file.Path scratch)
      throws IOException {
    URI uri = path.toUri().getScheme() != null ? path.toUri() : FileSystem.getDefaultUri(conf);
    if (!"s3a".equals(uri.getScheme()) || uri.getAuthority() == null
        || !defaultDiskBuffers(conf, uri.getAuthority())) {
      return path.getFileSystem(conf);
    }
    Key key = new Key(URI.create("s3a://" + uri.getAuthority()),
        UserGroupInformation.getCurrentUser(), scratch.toAbsolutePath().normalize());
    synchronized (CLIENTS) {
      Client client = CLIENTS.get(key);
      if (client == null) {
        client = open(key, conf);
        CLIENTS.put(key, client);
        if (!hooked) {
          ShutdownHookManager.get().addShutdownHook(UploadBuffers::releaseAll,
              SHUTDOWN_PRIORITY);
          hooked = true;
        }
      }
      return client.fs();
    }
  }

  /**
   * Whether S3A buffers blocks on local disk in its default directory: the user set no other
   * directory than core-default.xml's, for the bucket or all, and no buffer in memory. Told by
   * the value, not by where it came from: a job's configuration, written to its job.xml and read
   * back by its tasks, names that file as the source of every setting.
   */
  static boolean defaultDiskBuffers(Configuration conf, String bucket) {
    String perBucket = "fs.s3a.bucket." + bucket + ".";
    String buffer = conf.getTrimmed(perBucket + BUFFER.substring("fs.s3a.".length()),
        conf.getTrimmed(BUFFER, "disk"));
    if (!"disk".equals(buffer) || conf.get(perBucket + BUFFER_DIR.substring("fs.s3a.".length()))
        != null) {
      return false;
    }
    String directory = conf.getRaw(BUFFER_DIR);
    return directory == null || directory.isBlank() || directory.equals(Defaults.DIRECTORY);
  }

  /** core-default.xml's buffer directory, read once, on first use. */
  private static final class Defaults {
    static final String DIRECTORY;

    static {
      Configuration defaults = new Configuration(false);
      defaults.addResource("core-default.xml");
      DIRECTORY = defaults.getRaw(BUFFER_DIR);
    }
  }

  private static Client open(Key key, Configuration conf) throws IOException {
    java.nio.file.Path dir;
    try {
      Files.createDirectories(key.scratch(), LocalModes.attribute(MODE));
      dir = Files.createTempDirectory(key.scratch(), PREFIX, LocalModes.attribute(MODE));
    } catch (IOException e) {
      throw new IOException("cannot create the directory for S3A's upload buffers in the "
          + "scratch directory " + key.scratch() + ": " + e.getMessage(), e);
    }
    Configuration own = new Configuration(conf);
    own.set(BUFFER_DIR, dir.toString());
    try {
      // As FileSystem.get makes a client, without putting it in Hadoop's cache.
      FileSystem fs = ReflectionUtils.newInstance(
          FileSystem.getFileSystemClass(key.fileSystem().getScheme(), own), own);
      fs.initialize(key.fileSystem(), own);
      return new Client(fs, dir);
    } catch (IOException | RuntimeException e) {
      FileUtil.fullyDelete(dir.toFile());
      throw e;
    }
  }

  /**
   * Closes the clients whose scratch directory is {@code directory} or below it, and removes
   * their buffer directories: call before removing that directory.
   */
  public static void release(java.nio.file.Path directory) {
    java.nio.file.Path below = directory.toAbsolutePath().normalize();
    List<Client> released = new ArrayList<>();
    synchronized (CLIENTS) {
      CLIENTS.entrySet().removeIf(entry -> {
        boolean match = entry.getKey().scratch().startsWith(below);
        if (match) {
          released.add(entry.getValue());
        }
        return match;
      });
    }
    released.forEach(UploadBuffers::close);
  }

  private static void releaseAll() {
    List<Client> all;
    synchronized (CLIENTS) {
      all = new ArrayList<>(CLIENTS.values());
      CLIENTS.clear();
    }
    all.forEach(UploadBuffers::close);
  }

  private static void close(Client client) {
    try {
      client.fs().close();
    } catch (IOException | RuntimeException e) {
      LOG.debug("closing the S3A client of {}: {}", client.directory(), e.toString());
    }
    FileUtil.fullyDelete(client.directory().toFile());
  }
}
