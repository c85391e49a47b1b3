package org.hpf.internal.write.spill;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.FileAttribute;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.hpf.internal.io.LocalModes;

/**
 * Where a writer spills what it cannot keep in memory (sorted runs of names and index records):
 * a directory on the local file system, {@code java.io.tmpdir} unless the writer's options name
 * another. Each sorter that spills makes and removes its own subdirectory.
 *
 * <p>Spilled entries hold member names, which only the archive's readers may see: each sorter's
 * subdirectory is created {@code rwx------} in one step, and its files {@code rw-------} (a
 * umask of 077 for the local file system the sorters write through), whatever the writer's
 * umask and however open the directory above is ({@code /tmp} is everyone's).
 */
public final class Scratch {
  /** The mode of each sorter's directory: {@code rwx------}. */
  static final int DIRECTORY_MODE = 0700;
  /** The umask the sorters' files are created with: no bits for group or others. */
  static final String FILE_UMASK = "077";

  /**
   * Hadoop's defaults, parsed once: a new Configuration parses its XML resources again on first
   * use, which cost more than the rest of a small commit. Each scratch that is used gets its own
   * copy.
   */
  private static final Configuration DEFAULTS = new Configuration();
  /**
   * The local file system all sorters write through, made once with a umask of 077: Hadoop
   * caches one instance per scheme and user, whose configuration (and umask) is whoever's asked
   * first, so the sorters get one of their own.
   */
  private static LocalFileSystem privateLocal;

  private final java.nio.file.Path directory;
  private LocalFileSystem fileSystem;
  private Configuration conf;
  private Path root;

  private Scratch(java.nio.file.Path directory) {
    this.directory = directory;
  }

  /** Scratch space below {@code directory} (a local path), created if missing. */
  public static Scratch in(java.nio.file.Path directory) throws IOException {
    java.nio.file.Path absolute = directory.toAbsolutePath();
    try {
      if (!Files.isDirectory(absolute)) {
        Files.createDirectories(absolute, ownerOnly());
      }
    } catch (IOException e) {
      throw new IOException("cannot create the scratch directory " + directory, e);
    }
    return new Scratch(absolute);
  }

  /**
   * Makes {@code dir} {@code rwx------} from its first moment (where the file system has POSIX
   * modes); fails if it exists.
   */
  static void createPrivateDirectory(java.nio.file.Path dir) throws IOException {
    Files.createDirectory(dir, ownerOnly());
  }

  private static FileAttribute<?>[] ownerOnly() {
    return LocalModes.attribute(DIRECTORY_MODE);
  }

  /** The default: {@code java.io.tmpdir}. */
  public static java.nio.file.Path defaultDirectory() {
    return java.nio.file.Path.of(System.getProperty("java.io.tmpdir"));
  }

  /** The local file system that sorters spill through. */
  synchronized LocalFileSystem fileSystem() throws IOException {
    openLocal();
    return fileSystem;
  }

  /** The configuration of {@link #fileSystem()}. */
  synchronized Configuration conf() throws IOException {
    openLocal();
    return conf;
  }

  /** The scratch directory as a qualified Hadoop path. */
  synchronized Path root() throws IOException {
    openLocal();
    return root;
  }

  /** Made on first use only: most changes are small enough never to spill. */
  private void openLocal() throws IOException {
    if (fileSystem == null) {
      fileSystem = privateLocal();
      conf = new Configuration(fileSystem.getConf());
      root = fileSystem.makeQualified(new Path(directory.toUri()));
    }
  }

  private static synchronized LocalFileSystem privateLocal() throws IOException {
    if (privateLocal == null) {
      Configuration conf = new Configuration(DEFAULTS);
      conf.set(FsPermission.UMASK_LABEL, FILE_UMASK);
      privateLocal = FileSystem.newInstanceLocal(conf);
    }
    return privateLocal;
  }
}
