package org.hpf.internal.write.spill;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Where a writer spills what it cannot keep in memory (sorted runs of names and index records):
 * a directory on the local file system, {@code java.io.tmpdir} unless the writer's options name
 * another. Each sorter makes and removes its own subdirectory.
 */
public record Scratch(LocalFileSystem fileSystem, Configuration conf, Path root) {
  /**
   * Hadoop's defaults, parsed once: a new Configuration parses its XML resources again on first
   * use, which cost more than the rest of a small commit. Each scratch gets its own copy.
   */
  private static final Configuration DEFAULTS = new Configuration();

  /** Scratch space below {@code directory} (a local path), created if missing. */
  public static Scratch in(java.nio.file.Path directory) throws IOException {
    Configuration conf = new Configuration(DEFAULTS);
    LocalFileSystem local = FileSystem.getLocal(conf);
    Path root = local.makeQualified(new Path(directory.toAbsolutePath().toUri()));
    if (!local.mkdirs(root)) {
      throw new IOException("cannot create the scratch directory " + directory);
    }
    return new Scratch(local, conf, root);
  }

  /** The default: {@code java.io.tmpdir}. */
  public static java.nio.file.Path defaultDirectory() {
    return java.nio.file.Path.of(System.getProperty("java.io.tmpdir"));
  }
}
