package org.hpf.internal.write.spill;

import java.io.IOException;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Where a writer spills what it cannot keep in memory (sorted runs of names and index records):
 * a directory on the local file system, {@code java.io.tmpdir} unless the writer's options name
 * another. Each sorter that spills makes and removes its own subdirectory.
 */
public final class Scratch {
  /**
   * Hadoop's defaults, parsed once: a new Configuration parses its XML resources again on first
   * use, which cost more than the rest of a small commit. Each scratch that is used gets its own
   * copy.
   */
  private static final Configuration DEFAULTS = new Configuration();

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
        Files.createDirectories(absolute);
      }
    } catch (IOException e) {
      throw new IOException("cannot create the scratch directory " + directory, e);
    }
    return new Scratch(absolute);
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
      conf = new Configuration(DEFAULTS);
      fileSystem = FileSystem.getLocal(conf);
      root = fileSystem.makeQualified(new Path(directory.toUri()));
    }
  }
}
