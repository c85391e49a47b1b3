package org.hpf.internal.write;

import org.hpf.internal.hdfs.HdfsReport;

/**
 * What a create wrote, with the figures that size an archive: index bytes per file and bits per
 * key of the functions (as stored), and where the time went; {@code hdfs} says what the HDFS
 * integration did or skipped (docs/HDFS.md), {@code links} what the walk of the sources did
 * with symbolic links.
 */
public record CreateResult(String archive, long generation, long files, long originalBytes,
    long storedBytes, int parts, int buckets, int globalDepth, long indexBytes,
    long functionBytes, long mergeMillis, long indexMillis, long totalMillis, HdfsReport hdfs,
    SourceLinks links) {

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
