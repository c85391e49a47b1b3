package org.hpf;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.read.DirectoryAccess;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.WriterOptions;

/**
 * Where a program starts with hpf: opens readers and writers of archives on any Hadoop file
 * system ({@code hdfs://}, {@code file://}, ...). An archive is a directory, by convention named
 * {@code *.hpf}.
 *
 * <pre>{@code
 * Configuration conf = new Configuration();
 * Path archive = new Path("hdfs://namenode:8020/data/logs.hpf");
 * try (ArchiveWriter writer = HpfArchive.create(archive, conf)) {
 *   writer.add("2026/11/25/app.log", bytes);
 *   writer.commit();
 * }
 * try (ArchiveReader reader = HpfArchive.openReader(archive, conf)) {
 *   byte[] log = reader.get("2026/11/25/app.log");
 * }
 * }</pre>
 *
 * <p>The methods without settings read them from {@code conf} ({@link ArchiveSettings#from},
 * {@link WriteSettings#from}, {@link ReadSettings#from}), so a MapReduce or Spark job
 * configures hpf as it configures everything else.
 */
public final class HpfArchive {
  private HpfArchive() {}

  /**
   * Opens a reader of the archive's newest generation, with settings from {@code conf}.
   *
   * @param archive the archive's directory
   * @param conf the Hadoop configuration (file system, {@code hpf.read.*} keys)
   * @return a reader; close it
   * @throws java.io.FileNotFoundException if there is no archive at {@code archive}
   * @throws NoCommittedGenerationException if its first generation was never committed
   * @throws CorruptArchiveException if its manifest is damaged
   * @throws ArchiveVersionException if it was written by a newer version of hpf
   * @throws IOException if the file system fails
   */
  public static ArchiveReader openReader(Path archive, Configuration conf) throws IOException {
    return openReader(archive, conf, ReadSettings.from(conf));
  }

  /**
   * Opens a reader of the archive's newest generation. Costs listing the archive's manifests
   * and reading the newest one (on HDFS: 3 NameNode calls and 1 DataNode read).
   *
   * @param archive the archive's directory
   * @param conf the Hadoop configuration
   * @param settings how to read
   * @return a reader; close it
   * @throws java.io.FileNotFoundException if there is no archive at {@code archive}
   * @throws IOException as {@link #openReader(Path, Configuration)}
   */
  public static ArchiveReader openReader(Path archive, Configuration conf,
      ReadSettings settings) throws IOException {
    ReaderOptions options = new ReaderOptions(null, settings.openAllFiles(),
        settings.recordCacheBytes(), settings.indexMemoryBytes(), null);
    FileSystem fs = archive.getFileSystem(conf);
    return new DefaultArchiveReader(HpfReader.open(fs, archive, options),
        new DirectoryAccess(fs, archive));
  }

  /**
   * Starts a new archive, with its layout and the writer's settings from {@code conf}.
   *
   * @param archive where to create it: a path that does not exist, or an empty directory
   * @param conf the Hadoop configuration (file system, {@code hpf.archive.*},
   *     {@code hpf.write.*} and {@code hpf.hdfs.*} keys)
   * @return a writer; nothing is visible until its first commit
   * @throws ArchiveExistsException if {@code archive} is a directory that is not empty
   * @throws UnsupportedStoreException if {@code archive} is on a store where hpf cannot commit
   *     safely (a store with neither an atomic rename nor a conditional create)
   * @throws IOException if the file system fails
   */
  public static ArchiveWriter create(Path archive, Configuration conf) throws IOException {
    return create(archive, conf, ArchiveSettings.from(conf), WriteSettings.from(conf));
  }

  /**
   * Starts a new archive.
   *
   * @param archive where to create it: a path that does not exist, or an empty directory
   * @param conf the Hadoop configuration
   * @param layout the archive's layout, fixed from now on
   * @param settings how this writer works
   * @return a writer; nothing is visible until its first commit
   * @throws ArchiveExistsException if {@code archive} is a directory that is not empty
   * @throws LimitExceededException if the bucket capacity does not fit one block
   * @throws UnsupportedStoreException if {@code archive} is on a store where hpf cannot commit
   *     safely (a store with neither an atomic rename nor a conditional create)
   * @throws IOException if the file system fails
   */
  public static ArchiveWriter create(Path archive, Configuration conf, ArchiveSettings layout,
      WriteSettings settings) throws IOException {
    return new DefaultArchiveWriter(org.hpf.internal.write.ArchiveWriter.create(conf, archive,
        writerOptions(layout, settings)));
  }

  /**
   * Creates an archive of every file below {@code roots} and commits it, in one call: the
   * common case of {@link #create(Path, Configuration)}, {@link ArchiveWriter#addTree} and
   * {@link ArchiveWriter#commit()}, with the layout and settings from {@code conf}. A failure
   * leaves nothing at {@code archive}.
   *
   * @param archive where to create it: a path that does not exist, or an empty directory
   * @param conf the Hadoop configuration
   * @param roots directories (or single files) to archive; a member's name is its path
   *     relative to its root
   * @return what the commit published
   * @throws ArchiveExistsException if {@code archive} is a directory that is not empty
   * @throws DuplicateNameException if two roots give the same name
   * @throws IOException if a source cannot be read or the file system fails
   */
  public static CommitResult createFromTrees(Path archive, Configuration conf, List<Path> roots)
      throws IOException {
    try (ArchiveWriter writer = create(archive, conf)) {
      writer.addTree(roots, ExistingNames.FAIL);
      return writer.commit();
    }
  }

  /**
   * Opens an archive for changes, with the writer's settings from {@code conf}.
   *
   * @param archive the archive's directory
   * @param conf the Hadoop configuration
   * @return a writer
   * @throws java.io.FileNotFoundException if there is no archive at {@code archive} (or, once
   *     recovery removed what a create that never committed left there, no longer)
   * @throws NoCommittedGenerationException if {@code archive} is a directory but no archive
   *     (no {@code _manifests} directory): nothing in it is touched
   * @throws ArchiveLockedException if another writer holds the archive
   * @throws UnsupportedStoreException if {@code archive} is on a store where hpf cannot commit
   *     safely (a store with neither an atomic rename nor a conditional create)
   * @throws IOException if recovering what a dead writer left fails, or the file system fails
   */
  public static ArchiveWriter openWriter(Path archive, Configuration conf) throws IOException {
    return openWriter(archive, conf, WriteSettings.from(conf));
  }

  /**
   * Opens an archive for changes: takes its lock, then recovers whatever a writer that died
   * left (rolls its journal forward, or removes its files).
   *
   * @param archive the archive's directory
   * @param conf the Hadoop configuration
   * @param settings how this writer works
   * @return a writer
   * @throws java.io.FileNotFoundException if there is no archive at {@code archive} (or, once
   *     recovery removed what a create that never committed left there, no longer)
   * @throws NoCommittedGenerationException if {@code archive} is a directory but no archive
   *     (no {@code _manifests} directory): nothing in it is touched
   * @throws ArchiveLockedException if another writer holds the archive
   * @throws UnsupportedStoreException if {@code archive} is on a store where hpf cannot commit
   *     safely (a store with neither an atomic rename nor a conditional create)
   * @throws IOException if recovery fails, or the file system fails
   */
  public static ArchiveWriter openWriter(Path archive, Configuration conf,
      WriteSettings settings) throws IOException {
    // The layout is the archive's: only replication of new files is the file system's default.
    return new DefaultArchiveWriter(org.hpf.internal.write.ArchiveWriter.open(conf, archive,
        writerOptions(ArchiveSettings.defaults(), settings)));
  }

  private static WriterOptions writerOptions(ArchiveSettings layout, WriteSettings settings) {
    return WriterOptions.builder(layout, settings).build();
  }
}
