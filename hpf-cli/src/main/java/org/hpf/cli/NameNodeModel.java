package org.hpf.cli;

import java.io.IOException;
import java.util.Iterator;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.format.NameEntry;

/**
 * NameNode objects and the memory they take, in the model of K. Shvachko, "HDFS Scalability:
 * The Limits to Growth", ;login: 35(2), April 2010: the NameNode keeps every file inode,
 * directory inode and block in RAM as an object of fewer than 200 bytes, so a namespace of
 * {@code F} files of {@code λ} blocks each needs at least {@code F (1 + λ) 200} bytes.
 * {@link #OBJECT_BYTES} is that upper estimate; transient structures (replication queues) and
 * the block map's per-replica entries are not counted.
 */
final class NameNodeModel {
  /** Bytes of NameNode heap per object (inode or block): the paper's estimate. */
  static final int OBJECT_BYTES = 200;

  static final String MODEL = "NameNode memory at " + OBJECT_BYTES + " bytes per object (file"
      + " or directory inode, or block), after Shvachko, \"HDFS Scalability: The Limits to"
      + " Growth\", ;login: 35(2), 2010";

  private NameNodeModel() {}

  /** Inodes and blocks, and the heap the model gives them. */
  record Objects(long inodes, long blocks) {
    long total() {
      return inodes + blocks;
    }

    long memoryBytes() {
      return total() * OBJECT_BYTES;
    }
  }

  /**
   * What the archive's directory holds, listed now: its own inode, every directory and file in
   * it (older generations still kept, a lock or journal included) and their blocks.
   */
  static Objects ofArchive(FileSystem fs, Path archive) throws IOException {
    long[] counts = {1, 0};
    count(fs, archive, counts);
    return new Objects(counts[0], counts[1]);
  }

  private static void count(FileSystem fs, Path dir, long[] counts) throws IOException {
    for (FileStatus status : fs.listStatus(dir)) {
      counts[0]++;
      if (status.isDirectory()) {
        count(fs, status.getPath(), counts);
      } else {
        counts[1] += blocks(status.getLen(), status.getBlockSize());
      }
    }
  }

  /**
   * What the same files would take as plain files under one root directory: an inode per file,
   * per directory their names imply and for the root, and a block per started {@code blockSize}
   * of each non-empty file. Streams the names once.
   */
  static Objects asPlainFiles(Iterator<NameEntry> sortedEntries, long blockSize) {
    long inodes = 1;
    long blocks = 0;
    String previousDirectory = "";
    while (sortedEntries.hasNext()) {
      NameEntry entry = sortedEntries.next();
      inodes++;
      blocks += blocks(entry.length(), blockSize);
      int slash = entry.name().lastIndexOf('/');
      String directory = slash < 0 ? "" : entry.name().substring(0, slash + 1);
      inodes += newDirectories(previousDirectory, directory);
      previousDirectory = directory;
    }
    return new Objects(inodes, blocks);
  }

  /**
   * Directories of {@code directory} ("a/b/") that {@code previous} ("a/c/") does not share.
   * In sorted order all names under a directory are contiguous, so a directory is new exactly
   * when it is not an ancestor-or-self of the previous name's directory.
   */
  static int newDirectories(String previous, String directory) {
    int common = 0;
    int n = Math.min(previous.length(), directory.length());
    for (int i = 0; i < n && previous.charAt(i) == directory.charAt(i); i++) {
      if (directory.charAt(i) == '/') {
        common = i + 1;
      }
    }
    int total = 0;
    for (int i = common; i < directory.length(); i++) {
      if (directory.charAt(i) == '/') {
        total++;
      }
    }
    return total;
  }

  static long blocks(long length, long blockSize) {
    return length <= 0 ? 0 : (length + blockSize - 1) / blockSize;
  }
}
