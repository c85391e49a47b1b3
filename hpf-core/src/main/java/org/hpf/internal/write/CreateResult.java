package org.hpf.internal.write;

import java.util.List;
import org.hpf.internal.hdfs.HdfsReport;

/**
 * What a create wrote, with the figures that size an archive: index bytes per file and bits per
 * key of the functions (as stored), and where the time went, phase by phase ({@code phases},
 * which add up to the wall time); {@code hdfs} says what the HDFS integration did or skipped
 * (docs/HDFS.md), {@code links} what the walk of the sources did with symbolic links;
 * {@code warnings}, what failed after the commit point without undoing the create (cleanup that
 * the next writer does instead).
 */
public record CreateResult(String archive, long generation, long files, long originalBytes,
    long storedBytes, int parts, int buckets, int globalDepth, long indexBytes,
    long functionBytes, PhaseTimes phases, HdfsReport hdfs, SourceLinks links,
    List<String> warnings) {

  public CreateResult {
    warnings = List.copyOf(warnings);
  }

  /** This result with {@code more} warnings (those of closing the writer, say). */
  public CreateResult withWarnings(List<String> more) {
    return new CreateResult(archive, generation, files, originalBytes, storedBytes, parts,
        buckets, globalDepth, indexBytes, functionBytes, phases, hdfs, links,
        Warnings.join(warnings, more));
  }

  /** This result with {@code other} as what it did with HDFS features. */
  public CreateResult withHdfs(HdfsReport other) {
    return new CreateResult(archive, generation, files, originalBytes, storedBytes, parts,
        buckets, globalDepth, indexBytes, functionBytes, phases, other, links, warnings);
  }

  /** The wall time of the create. */
  public long totalMillis() {
    return phases.wallNanos() / 1_000_000;
  }

  /** Reading the sources and writing the parts. */
  public long mergeMillis() {
    return phases.millis(Phase.MERGE);
  }

  /** Building the index. */
  public long indexMillis() {
    return phases.millis(Phase.INDEX);
  }

  public double indexBytesPerFile() {
    return files == 0 ? 0 : (double) indexBytes / files;
  }

  public double functionBitsPerKey() {
    return files == 0 ? 0 : functionBytes * 8.0 / files;
  }

  /** Files and directories the archive puts in the NameNode (the root, _manifests and files). */
  public long archiveFiles() {
    return parts + buckets + 3L; // directory, names and manifest files
  }
}
