package org.hpf.internal.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * What tells one version of a source file from another, so that a removal deletes only the
 * version it verified. Length and modification time are not enough: a file rewritten with the
 * same length can have its modification time set back. So the version also holds what the file
 * system changes on every rewrite and no user can set:
 * <ul>
 *   <li>HDFS: the file id (a file deleted and created again gets a new one) and the id and
 *       generation stamp of the last block (an append or truncate changes them: they are the
 *       only ways HDFS rewrites a file in place); one NameNode call;
 *   <li>local file system: the inode and the change time (ctime, which every write and every
 *       change of the modification time sets to now);
 *   <li>elsewhere: the etag where the file system has one.
 * </ul>
 */
final class SourceVersion {
  private final long length;
  private final long blockSize;
  private final boolean openForWriting;
  /** Name to value of everything compared, in the order messages name them. */
  private final Map<String, Object> marks;

  private SourceVersion(long length, long blockSize, boolean openForWriting,
      Map<String, Object> marks) {
    this.length = length;
    this.blockSize = blockSize;
    this.openForWriting = openForWriting;
    this.marks = marks;
  }

  /** The version {@code file} has now; FileNotFoundException if it is gone. */
  static SourceVersion of(FileSystem fs, Path file) throws IOException {
    if (fs instanceof DistributedFileSystem dfs) {
      return ofHdfs(dfs, file);
    }
    FileSystem raw = fs instanceof LocalFileSystem local ? local.getRaw() : fs;
    if (raw instanceof RawLocalFileSystem local) {
      return ofLocal(local, file);
    }
    FileStatus status = fs.getFileStatus(file);
    Map<String, Object> marks = basics(status.getLen(), status.getModificationTime());
    if (status instanceof EtagSource etag && etag.getEtag() != null) {
      marks.put("etag", etag.getEtag());
    }
    return new SourceVersion(status.getLen(), status.getBlockSize(), false, marks);
  }

  private static SourceVersion ofHdfs(DistributedFileSystem dfs, Path file) throws IOException {
    String path = dfs.makeQualified(file).toUri().getPath();
    HdfsLocatedFileStatus status = dfs.getClient().getLocatedFileInfo(path, false);
    if (status == null) {
      throw new FileNotFoundException("file does not exist: " + file);
    }
    Map<String, Object> marks = basics(status.getLen(), status.getModificationTime());
    marks.put("HDFS file id", status.getFileId());
    LocatedBlock last = status.getLocatedBlocks() == null ? null
        : status.getLocatedBlocks().getLastLocatedBlock();
    if (last != null) {
      marks.put("last block", last.getBlock().getBlockId() + "_"
          + last.getBlock().getGenerationStamp());
    }
    boolean open = status.getLocatedBlocks() != null
        && status.getLocatedBlocks().isUnderConstruction();
    return new SourceVersion(status.getLen(), status.getBlockSize(), open, marks);
  }

  private static SourceVersion ofLocal(RawLocalFileSystem fs, Path file) throws IOException {
    java.nio.file.Path local = fs.pathToFile(file).toPath();
    BasicFileAttributes basic;
    try {
      basic = Files.readAttributes(local, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new FileNotFoundException("file does not exist: " + file);
    }
    Map<String, Object> marks = basics(basic.size(), basic.lastModifiedTime().toMillis());
    marks.put("modification time", basic.lastModifiedTime()); // to the nanosecond
    if (basic.fileKey() != null) {
      marks.put("inode", basic.fileKey());
    }
    try {
      marks.put("change time", Files.getAttribute(local, "unix:ctime",
          LinkOption.NOFOLLOW_LINKS));
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      // no POSIX change time here (Windows): the rest must do
    }
    return new SourceVersion(basic.size(), fs.getDefaultBlockSize(file), false, marks);
  }

  private static Map<String, Object> basics(long length, long modificationTime) {
    Map<String, Object> marks = new LinkedHashMap<>();
    marks.put("length", length);
    marks.put("modification time", modificationTime);
    return marks;
  }

  long length() {
    return length;
  }

  long blockSize() {
    return blockSize;
  }

  /** True when a writer has the file open (HDFS): its bytes may still change. */
  boolean openForWriting() {
    return openForWriting;
  }

  /** Null when this is the version {@code earlier} was; else what changed ("length, inode"). */
  String changesSince(SourceVersion earlier) {
    StringJoiner changed = new StringJoiner(", ");
    for (Map.Entry<String, Object> mark : marks.entrySet()) {
      if (!Objects.equals(mark.getValue(), earlier.marks.get(mark.getKey()))) {
        changed.add(mark.getKey());
      }
    }
    if (openForWriting != earlier.openForWriting) {
      changed.add("open for writing");
    }
    return changed.length() == 0 ? null : changed.toString();
  }
}
