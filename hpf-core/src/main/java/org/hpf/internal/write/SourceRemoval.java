package org.hpf.internal.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CompositeCrcFileChecksum;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.hpf.MemberAccess;
import org.hpf.SourceException;
import org.hpf.internal.access.FileAccess;
import org.hpf.internal.access.Readers;
import org.hpf.fs.HpfFileChecksum;
import org.hpf.internal.format.IndexRecord;
import org.hpf.WriteSettings;
import org.hpf.internal.io.CommitSupport;
import org.hpf.internal.read.HpfReader;

/**
 * Deletes source files once they are verified in an archive, the step that gives the NameNode
 * its memory back. Each file below the source directories is looked up by the name a create
 * gives it and compared with the member: same length and the same CRC32C (HDFS computes a
 * file's on the DataNodes when asked for a COMPOSITE_CRC checksum; elsewhere, and for files
 * whose HDFS checksums are not CRC32C, the file is read). Then the member's copy is read back
 * from the archive and must have the CRC32C its entry stores, in a part that is not
 * LAZY_PERSIST ({@link ArchivedCopies}). Immediately before the delete the file must still be
 * the version that was verified ({@link SourceVersion}: length, modification time and what
 * the file system changes on every rewrite, such as the HDFS file id). Only such a file is
 * deleted; then directories left empty are removed (never a source root). Any other file is
 * kept and reported with the reason.
 *
 * <p>Crash-safe by construction: a file is deleted only after it was verified against a
 * committed generation, so after a crash at any point every file is either still in place or
 * verified in the archive, and running the removal again finishes the work. The parts hold
 * their bytes on disk by then: hpf creates its files on HDFS with SYNC_BLOCK, so each block
 * is synced to disk as it is finalized (see docs/CRASH-SAFETY.md).
 */
public final class SourceRemoval {
  /**
   * How to run: {@code dryRun} verifies and reports, deleting nothing; {@code owner}, when not
   * null, limits the removal to that owner's files (the others are left alone, unreported), for
   * an archive that holds only theirs.
   */
  public record Options(boolean dryRun, int threads, String owner) {
    public Options {
      if (threads < 1) {
        throw new IllegalArgumentException("threads must be at least 1: " + threads);
      }
    }

    /** Every owner's files. */
    public Options(boolean dryRun, int threads) {
      this(dryRun, threads, null);
    }
  }

  /** What a removal verified, deleted (or would delete) and kept. */
  public record Result(boolean dryRun, long filesVerified, long filesDeleted, long bytesDeleted,
      long directoriesRemoved, long blocksFreed, long filesKept, List<String> firstKept) {

    /** NameNode objects freed: file and directory inodes, and blocks. */
    public long namenodeObjectsFreed() {
      return filesDeleted + directoriesRemoved + blocksFreed;
    }
  }

  /** Called before each file is deleted; tests stop a removal there. */
  @FunctionalInterface
  interface BeforeDelete {
    void file(Path file) throws IOException;
  }

  private static final int SHOWN = 10;

  /**
   * Refuses writer options whose parts may not survive a DataNode restart when the sources are
   * to be deleted after the commit: LAZY_PERSIST parts. Call it before anything is written.
   *
   * @throws IllegalArgumentException when the options ask for LAZY_PERSIST parts
   */
  public static void requireDurableParts(WriteSettings hdfs) {
    if (hdfs.lazyPersist()) {
      throw new IllegalArgumentException("--delete-sources needs parts that are durable on"
          + " disk, and " + WriteSettings.LAZY_PERSIST + " parts are not (a DataNode restart can"
          + " lose them before HDFS saves them to disk): write the parts with another storage"
          + " policy, or keep the sources");
    }
  }

  private final Options options;
  private final HpfReader reader;
  private final ArchivedCopies archived;
  private final WriterPool pool;
  private final BeforeDelete beforeDelete;
  private final Configuration checksumConf;
  private final AtomicLong verified = new AtomicLong();
  private final AtomicLong deleted = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong blocks = new AtomicLong();
  private final AtomicLong kept = new AtomicLong();
  private final List<String> firstKept = new ArrayList<>();
  private long directories;
  private final java.util.Map<java.net.URI, FileSystem> checksums = new java.util.HashMap<>();
  /** Who may read the archive: a source read by anyone else stays. */
  private final ArchiveReaders archiveReaders;

  private SourceRemoval(Configuration conf, Options options, HpfReader reader,
      ArchivedCopies archived, ArchiveReaders archiveReaders, BeforeDelete beforeDelete) {
    this.options = options;
    this.archiveReaders = archiveReaders;
    this.reader = reader;
    this.archived = archived;
    this.pool = WriterPool.start(options.threads());
    this.beforeDelete = beforeDelete;
    this.checksumConf = new Configuration(conf);
    // File-level CRC32C from HDFS, comparable with the member's (see HpfFileChecksum).
    checksumConf.set("dfs.checksum.combine.mode", "COMPOSITE_CRC");
  }

  /**
   * Verifies the files below {@code roots} against {@code archive} and deletes those that
   * match.
   */
  public static Result run(Configuration conf, Path archive, List<Path> roots, Options options)
      throws IOException {
    return run(conf, archive, roots, options, file -> {});
  }

  static Result run(Configuration conf, Path archive, List<Path> roots, Options options,
      BeforeDelete beforeDelete) throws IOException {
    FileSystem archiveFs = archive.getFileSystem(conf);
    Path target = archiveFs.makeQualified(archive);
    // Sources are deleted only against an archive hpf could have committed and can lock.
    CommitSupport.require(archiveFs, target, conf, "deleting sources archived in " + target);
    // The archive first: an archive that is missing is the error to report, not the sources.
    try (HpfReader reader = HpfReader.open(conf, target)) {
      List<Path> dirs = new ArrayList<>();
      for (Path root : roots) {
        dirs.add(checkRoot(conf, root, target));
      }
      SourceRemoval removal = new SourceRemoval(conf, options, reader,
          new ArchivedCopies(reader, archiveFs, target),
          ArchiveReaders.of(archiveFs, target), beforeDelete);
      try {
        for (Path root : dirs) {
          FileSystem fs = root.getFileSystem(conf);
          removal.directory(fs, root, "", true, removal.archiveReaders.pathReaders(fs, root));
        }
      } finally {
        removal.pool.close();
        for (FileSystem client : removal.checksums.values()) {
          client.close();
        }
      }
      return removal.result();
    }
  }

  private static Path checkRoot(Configuration conf, Path root, Path archive) throws IOException {
    FileSystem fs = root.getFileSystem(conf);
    FileStatus status;
    try {
      status = fs.getFileStatus(root);
    } catch (FileNotFoundException e) {
      throw new SourceException("source does not exist: " + root);
    }
    if (!status.isDirectory()) {
      throw new SourceException("source is not a directory: " + status.getPath());
    }
    Path dir = status.getPath();
    for (Path at = archive; at != null; at = at.getParent()) {
      if (at.equals(dir)) {
        throw new SourceException("the archive " + archive + " is inside the source " + dir
            + ": removing the sources would remove it");
      }
    }
    for (Path at = dir; at != null; at = at.getParent()) {
      if (at.equals(archive)) {
        throw new SourceException("the source " + dir + " is inside the archive " + archive);
      }
    }
    return dir;
  }

  /**
   * Verifies and deletes the files of one directory, then its subdirectories; returns true when
   * the directory is (or, in a dry run, would be) left empty and was removed.
   */
  private boolean directory(FileSystem fs, Path dir, String prefix, boolean root,
      Readers through) throws IOException {
    FileSystem files = fs instanceof LocalFileSystem local ? local.getRaw() : fs;
    FileStatus[] children = files.listStatus(dir);
    Arrays.sort(children);
    boolean empty = true;
    List<Future<Boolean>> pending = new ArrayList<>();
    for (FileStatus child : children) {
      if (SymbolicLinks.kind(files, child) != SymbolicLinks.Kind.NONE) {
        keep(child.getPath(), "a symbolic link (not archived)");
        empty = false;
      } else if (child.isDirectory()) {
        empty &= directory(files, child.getPath(), prefix + child.getPath().getName() + "/",
            false, through.and(FileAccess.directoryReaders(FileAccess.of(files, child))));
      } else {
        MemberAccess access = FileAccess.of(files, child);
        if (options.owner() != null && (access == null
            || !options.owner().equals(access.owner()))) {
          empty = false; // another owner's, for another archive
          continue;
        }
        String name = prefix + child.getPath().getName();
        Readers readers = through.and(FileAccess.fileReaders(access));
        pending.add(pool.submit(() -> file(files, child.getPath(), name, readers)));
        if (pending.size() >= options.threads() * 4) {
          empty &= drain(pending);
        }
      }
    }
    empty &= drain(pending);
    if (!empty || root) {
      return false;
    }
    if (!options.dryRun() && !files.delete(dir, false)) {
      return false;
    }
    directories++;
    return true;
  }

  private static boolean drain(List<Future<Boolean>> pending) throws IOException {
    boolean all = true;
    for (Future<Boolean> file : pending) {
      all &= GenerationCommit.get(file);
    }
    pending.clear();
    return all;
  }

  /**
   * Verifies one file and deletes it if it matches; true when it is (or would be) gone. A file
   * the running user may not read or delete is kept and named: the others go on.
   */
  private boolean file(FileSystem fs, Path file, String name, Readers readers)
      throws IOException {
    String excluded = archiveReaders.excluded(fs, readers);
    if (excluded != null) {
      return keep(file, excluded);
    }
    try {
      return verifyAndDelete(fs, file, name);
    } catch (org.apache.hadoop.security.AccessControlException e) {
      return keep(file, "permission denied: " + firstLine(e.getMessage()));
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int end = message.indexOf('\n');
    return end < 0 ? message : message.substring(0, end);
  }

  private boolean verifyAndDelete(FileSystem fs, Path file, String name) throws IOException {
    // Taken first: whatever happens to the file from here on shows up as a change.
    SourceVersion version = SourceVersion.of(fs, file);
    if (version.openForWriting()) {
      return keep(file, "it is open for writing");
    }
    IndexRecord record = reader.record(name);
    if (record == null) {
      return keep(file, "not in the archive as '" + name + "'");
    }
    if (record.originalLength() != version.length()) {
      return keep(file, "its length " + version.length() + " differs from the member's "
          + record.originalLength());
    }
    int storedCrc = reader.contentChecksum(record);
    if (version.length() > 0 && !sameChecksum(fs, file, storedCrc)) {
      return keep(file, "its bytes differ from the member's (CRC32C)");
    }
    String archivedProblem = archived.problem(name, record, storedCrc);
    if (archivedProblem != null) {
      return keep(file, archivedProblem);
    }
    if (!options.dryRun()) {
      beforeDelete.file(file);
      String changes = changesSince(fs, file, version);
      if (changes != null) {
        return keep(file, "it changed after it was verified (" + changes + ")");
      }
    }
    verified.incrementAndGet();
    if (!options.dryRun() && !fs.delete(file, false)) {
      return keep(file, "the file system did not delete it");
    }
    deleted.incrementAndGet();
    bytes.addAndGet(version.length());
    long blockSize = Math.max(1, version.blockSize());
    blocks.addAndGet((version.length() + blockSize - 1) / blockSize);
    return true;
  }

  /** What changed in {@code file} since {@code verified} was taken, or null. */
  private static String changesSince(FileSystem fs, Path file, SourceVersion verified)
      throws IOException {
    try {
      return SourceVersion.of(fs, file).changesSince(verified);
    } catch (FileNotFoundException e) {
      return "it is gone";
    }
  }

  private boolean sameChecksum(FileSystem fs, Path file, int memberCrc) throws IOException {
    if (fs instanceof DistributedFileSystem) {
      FileChecksum hdfs = checksumClient(fs).getFileChecksum(file);
      HpfFileChecksum member = new HpfFileChecksum(memberCrc);
      if (hdfs instanceof CompositeCrcFileChecksum
          && hdfs.getAlgorithmName().equals(member.getAlgorithmName())) {
        return hdfs.equals(member);
      } // a cluster writing CRC32, not CRC32C: read the bytes
    }
    return crc32cOf(fs, file) == memberCrc;
  }

  /** The CRC32C of a file's bytes, read whole. */
  static int crc32cOf(FileSystem fs, Path file) throws IOException {
    CRC32C crc = new CRC32C();
    byte[] buffer = new byte[64 * 1024];
    try (InputStream in = fs.open(file)) {
      int n;
      while ((n = in.read(buffer)) > 0) {
        crc.update(buffer, 0, n);
      }
    }
    return (int) crc.getValue();
  }

  /** A client of {@code fs}'s cluster that asks for COMPOSITE_CRC checksums (one per run). */
  private synchronized FileSystem checksumClient(FileSystem fs) throws IOException {
    FileSystem client = checksums.get(fs.getUri());
    if (client == null) {
      client = FileSystem.newInstance(fs.getUri(), checksumConf);
      checksums.put(fs.getUri(), client);
    }
    return client;
  }

  private boolean keep(Path file, String why) {
    kept.incrementAndGet();
    synchronized (firstKept) {
      if (firstKept.size() < SHOWN) {
        firstKept.add(file + ": " + why);
      }
    }
    return false;
  }

  private Result result() {
    synchronized (firstKept) {
      return new Result(options.dryRun(), verified.get(), deleted.get(), bytes.get(),
          directories, blocks.get(), kept.get(), List.copyOf(firstKept));
    }
  }
}
