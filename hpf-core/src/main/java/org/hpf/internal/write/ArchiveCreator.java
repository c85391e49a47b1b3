package org.hpf.internal.write;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.hpf.LimitExceededException;
import org.hpf.internal.index.IndexFileWriter;
import org.hpf.internal.io.ArchiveStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates an archive from directory trees in one call: an {@link ArchiveWriter} that walks the
 * sources, merges them and commits generation 1. A failure removes the half-built archive; a
 * crash leaves the journal, from which {@link ArchiveWriter#recover} completes the create.
 */
public final class ArchiveCreator {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveCreator.class);

  /** Default most records per bucket: small index files load in one read, and a bucket being
   * built takes a few MiB of heap. */
  public static final int DEFAULT_BUCKET_CAPACITY = 1 << 16;

  private ArchiveCreator() {}

  public static CreateResult create(Configuration conf, Path archive, List<Path> sourceRoots,
      WriterOptions options) throws IOException {
    PhaseClock clock = PhaseClock.start();
    ArchiveWriter writer;
    try (PhaseClock.Section s = clock.in(Phase.OPEN)) {
      writer = ArchiveWriter.create(conf, archive, options, clock);
    }
    try (writer) {
      writer.addTree(sourceRoots, false);
      commit(writer, clock);
    }
    return finish(writer, clock);
  }

  /** Creates an archive in {@code storage} (the seam tests use to inject faults). */
  public static CreateResult create(ArchiveStorage storage, List<Source> sources,
      WriterOptions options) throws IOException {
    PhaseClock clock = PhaseClock.start();
    ArchiveWriter writer;
    try (PhaseClock.Section s = clock.in(Phase.OPEN)) {
      writer = ArchiveWriter.create(new Configuration(false), storage, options, clock);
    }
    try (writer) {
      options.settings().progress().started(sources.size(),
          sources.stream().mapToLong(Source::length).sum());
      try (PhaseClock.Section s = clock.in(Phase.MERGE)) {
        writer.addSources(sources.iterator(), false);
      }
      commit(writer, clock);
    }
    return finish(writer, clock);
  }

  /** Commits; closing the writer after it (the lock released) is clean-up. */
  private static void commit(ArchiveWriter writer, PhaseClock clock) throws IOException {
    writer.commit();
    clock.enter(Phase.CLEANUP);
  }

  private static CreateResult finish(ArchiveWriter writer, PhaseClock clock) {
    CreateResult result = writer.createResult(clock.stop()).withWarnings(writer.closeWarnings());
    LOG.info("created {}: {} files, {} buckets, {} parts", result.archive(), result.files(),
        result.buckets(), result.parts());
    return result;
  }

  /**
   * The bucket capacity to use: the option, or the default capped by what fits one block;
   * checked against the block.
   */
  static int capacity(WriterOptions options, long blockSize) throws LimitExceededException {
    int fits = IndexFileWriter.capacityFor(blockSize);
    if (options.layout().bucketCapacity() == 0) {
      return Math.min(DEFAULT_BUCKET_CAPACITY, fits);
    }
    if (options.layout().bucketCapacity() > fits) {
      throw new LimitExceededException("bucket capacity " + options.layout().bucketCapacity()
          + " does not fit an index file in one block of " + blockSize + " bytes (at most "
          + fits + ")");
    }
    return options.layout().bucketCapacity();
  }
}
