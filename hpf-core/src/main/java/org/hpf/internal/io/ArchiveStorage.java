package org.hpf.internal.io;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import org.hpf.internal.access.AccessPlan;
import org.hpf.internal.access.RootAccess;

/**
 * The files of one archive directory, as the format code sees them: named by paths relative to
 * the archive root ({@code "part-000001"}, {@code "_manifests/manifest-0000000001"}).
 *
 * <p>Kept this small on purpose: the format depends on nothing else of the file system, and
 * file-system-specific behaviour (HDFS storage policies, cache directives, leases) lives with the
 * implementation.
 */
public interface ArchiveStorage extends Closeable {

  /** A human-readable location of the archive, used in messages. */
  String location();

  /** The location of one file of the archive, for messages. */
  default String location(String name) {
    return location() + "/" + name;
  }

  boolean exists(String name) throws IOException;

  /**
   * How this storage commits (see {@link StorageProfile}): {@link StorageProfile#RENAME} by
   * default. On {@link StorageProfile#CONDITIONAL_CREATE} every {@link #create} fails where the
   * file exists, but only at the output's close, when the file appears whole; the output's
   * syncs do nothing; and {@link #rename} is not available.
   */
  default StorageProfile profile() throws IOException {
    return StorageProfile.RENAME;
  }

  /**
   * Creates a new file; fails if it exists ({@link org.apache.hadoop.fs.FileAlreadyExistsException},
   * on a {@link StorageProfile#CONDITIONAL_CREATE} storage from the output's close).
   * {@code blockSize} is a hint where supported.
   */
  ArchiveOutput create(String name, long blockSize) throws IOException;

  /** Opens a file for positioned reads. */
  ArchiveInput open(String name) throws IOException;

  /**
   * Opens a file whose length the archive records ({@code length}, or -1 where unknown): a
   * storage on an object store then asks the store nothing before the first read (no HEAD),
   * and a file shorter than that shows itself when a read passes its end. By default {@link
   * #open(String)}, which wrappers that watch or fault their files override.
   */
  default ArchiveInput open(String name, long length) throws IOException {
    return open(name);
  }

  /** Names of the files directly inside {@code dir} (relative to {@code dir}); empty if none. */
  List<String> list(String dir) throws IOException;

  /** Renames; fails if {@code to} exists. Atomic where the file system is (HDFS, POSIX). */
  void rename(String from, String to) throws IOException;

  /** Deletes a file; no error if it does not exist. */
  void delete(String name) throws IOException;

  /**
   * Deletes a file this writer created and no generation names (cleanup after a failure). Where
   * a create fails only at close (an object store), a name alone does not tell whose file it is:
   * there only a file whose create succeeded through this storage is deleted.
   */
  default void deleteCreated(String name) throws IOException {
    delete(name);
  }

  /**
   * Whether this storage knows {@code name} as a file whose create succeeded through it (a
   * writer's own file on an object store, where names alone do not tell); false where it keeps
   * no such account.
   */
  default boolean createdHere(String name) {
    return false;
  }

  /** Creates the archive directory (and {@code dir} inside it when not empty). */
  void mkdirs(String dir) throws IOException;

  /**
   * The owner, group and permission bits of the archive directory, which decide who may read
   * the archive's files; null where the file system keeps none.
   */
  default RootAccess rootAccess() throws IOException {
    return null;
  }

  /**
   * Gives the archive directory {@code access}'s permission bits and group (its owner stays).
   * When the group cannot be changed (the user is not in it), the group's bits are cleared
   * instead, so the result is never broader than asked.
   *
   * @return the access the directory now has
   */
  default RootAccess setRootAccess(RootAccess access) throws IOException {
    return access;
  }

  /**
   * Creates the archive directory, and {@code dir} inside it, for a new archive: its owner's
   * alone ({@code rwx------}) from its first moment where the file system can, else narrowed
   * at once. Returns the access the file system would have given the directory (its owner,
   * group and the umask's mode), which the first commit may widen it to; null where the file
   * system keeps none.
   */
  default RootAccess createPrivateRoot(String dir) throws IOException {
    mkdirs(dir);
    RootAccess given = rootAccess();
    if (given != null) {
      setRootAccess(given.without(AccessPlan.GROUP_BITS | AccessPlan.OTHER_BITS));
    }
    return given;
  }

  /** True when the archive's path names a file, not a directory; false where it cannot tell. */
  default boolean rootIsFile() throws IOException {
    return false;
  }

  /** True when the archive directory exists. */
  boolean rootExists() throws IOException;

  /** The block size new files get when none is asked for. */
  long defaultBlockSize();

  /** True when the archive directory exists and has any entry. */
  boolean rootExistsNonEmpty() throws IOException;

  /**
   * Makes a file that a dead writer left open final and readable to its last flushed byte
   * (HDFS lease recovery); a no-op where files need no such step.
   */
  default void recoverLease(String name) throws IOException {}

  /**
   * Aborts the uploads under the archive that were started and never completed (an object
   * store's multipart uploads of a writer that died), which the store keeps, and bills, until
   * aborted. Returns how many; 0 where the store has none.
   */
  default int abortPendingUploads() throws IOException {
    return 0;
  }

  /** Removes a directory inside the archive with everything below it; no error if absent. */
  void deleteDirectory(String dir) throws IOException;

  /**
   * True when the file system knows that whoever holds {@code name} open for writing is gone
   * (on HDFS: its lease expired past the soft limit, or the file was closed); false when it is
   * alive or the file system cannot tell.
   */
  default boolean writerIsGone(String name) throws IOException {
    return false;
  }

  /**
   * Creates a part file that a merge (a create, an append, a job's task) writes: on HDFS with the
   * part storage policy, LazyPersist where asked and possible; elsewhere as {@link #create}.
   * Wrappers forward it, so no wrapper can switch the feature off, and a wrapper that watches
   * the files it creates must watch these too.
   */
  default ArchiveOutput createMergedPart(String name, long blockSize) throws IOException {
    return create(name, blockSize);
  }

  /**
   * Called once a generation is committed (and garbage collected): on HDFS reports the merged
   * parts' storage policy and pins the generation's index files in the DataNodes' memory (and
   * unpins files no longer used). Never throws: the commit has happened. Elsewhere it reports
   * why the HDFS features were skipped.
   */
  default org.hpf.internal.hdfs.HdfsReport afterCommit(org.hpf.internal.format.Manifest manifest) {
    return org.hpf.internal.hdfs.HdfsReport.skipped("the archive's storage ("
        + getClass().getSimpleName() + ") is not HDFS");
  }

  /**
   * The blocks holding bytes {@code [offset, offset + length)} of an open file of this storage,
   * unclipped; empty where the storage has no blocks.
   */
  default org.apache.hadoop.fs.BlockLocation[] blockLocations(ArchiveInput file, long offset,
      long length) throws IOException {
    return new org.apache.hadoop.fs.BlockLocation[0];
  }

  /** Removes the whole archive directory: used only to clean up a create that failed. */
  void deleteRoot() throws IOException;

  /**
   * Removes the archive directory and its directory {@code dir} where they hold nothing, and
   * never a file: how a create that failed on an object store, having removed the files it
   * wrote, removes the directory markers it left.
   */
  default void deleteEmptyDirectories(String dir) throws IOException {}
}
