package org.hpf;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * Changes one archive: the same life cycle whether it creates the archive
 * ({@link HpfArchive#create}) or changes an existing one ({@link HpfArchive#openWriter}).
 *
 * <ol>
 *   <li>Opening takes the archive's exclusive lock (a second writer fails with
 *       {@link ArchiveLockedException}) and first recovers whatever a writer that died left.
 *   <li>{@link #add}, {@link #replace}, {@link #addTree} and {@link #delete} build a change.
 *       Each member is merged into a part file as it comes and journaled, so the heap does not
 *       grow with the number of members, and a crash loses nothing journaled.
 *   <li>{@link #commit()} publishes the change as one new generation, atomically; readers see
 *       all of it or none. {@link #abort()} (or closing without a commit) drops it and leaves
 *       the archive as it was; a create that never committed leaves nothing. <b>Closing without
 *       a commit discards the change</b>; it logs a warning with the number of members lost.
 * </ol>
 *
 * <p>{@link #compact} is a change of its own: it rewrites mostly-dead part files and is
 * published by the next commit. A writer may commit any number of changes before it is closed.
 * {@link #add} and {@link #replace} may be called from several threads at once (each merges
 * into its own part file); everything else from one. Close the writer to release the lock.
 *
 * <p>The archive's layout (part size, bucket capacity, block size, hash algorithm) is fixed
 * when it is created ({@link ArchiveSettings}) and read from the archive by later writers.
 */
public interface ArchiveWriter extends Closeable {
  /**
   * Adds a member from a stream of known length, owned and moded as the writer's default
   * access says ({@link WriteSettings#defaultAccess()}).
   *
   * @param name the member's name: UTF-8, {@code /}-separated, relative (see docs/FORMAT.md,
   *     "Names and limits")
   * @param in its bytes; exactly {@code length} are read, and the stream is not closed
   * @param length its length in bytes
   * @param modificationTime milliseconds since the epoch, or {@link MemberStatus#UNKNOWN_TIME}
   * @throws NameExistsException if the archive has the name (use {@link #replace})
   * @throws InvalidNameException if the name breaks the rules
   * @throws SourceException if the stream ends before {@code length} bytes
   * @throws IOException if the file system fails; a member up to 16 MiB that fails changes
   *     nothing, a larger one that fails midway leaves the writer able only to {@link #abort}
   */
  void add(String name, InputStream in, long length, long modificationTime) throws IOException;

  /**
   * As {@link #add(String, InputStream, long, long)}, recording the given owner, group and mode
   * instead of the writer's default ({@link WriteSettings#defaultAccess()}).
   *
   * @param name the member's name
   * @param in its bytes; exactly {@code length} are read, and the stream is not closed
   * @param length its length in bytes
   * @param modificationTime milliseconds since the epoch, or {@link MemberStatus#UNKNOWN_TIME}
   * @param access its owner, group and mode bits
   * @throws LimitExceededException if the archive would have more than 65,535 distinct
   *     accesses
   * @throws IOException as {@link #add(String, InputStream, long, long)}
   */
  void add(String name, InputStream in, long length, long modificationTime, MemberAccess access)
      throws IOException;

  /**
   * Adds a member whose bytes are in memory. Its modification time is the time of the call
   * ({@link System#currentTimeMillis()}); use {@link #add(String, InputStream, long, long)} to
   * give another.
   *
   * @param name the member's name
   * @param bytes its bytes
   * @throws NameExistsException if the archive has the name (use {@link #replace(String,
   *     byte[])})
   * @throws IOException as {@link #add(String, InputStream, long, long)}
   */
  void add(String name, byte[] bytes) throws IOException;

  /**
   * As {@link #add(String, InputStream, long, long)}, but a member of the same name is
   * replaced instead of refused.
   *
   * @param name the member's name
   * @param in its bytes (not closed)
   * @param length its length in bytes
   * @param modificationTime milliseconds since the epoch, or {@link MemberStatus#UNKNOWN_TIME}
   * @throws IOException as {@link #add(String, InputStream, long, long)}
   */
  void replace(String name, InputStream in, long length, long modificationTime)
      throws IOException;

  /**
   * As {@link #add(String, byte[])}, modified now, but a member of the same name is replaced
   * instead of refused.
   *
   * @param name the member's name
   * @param bytes its bytes
   * @throws IOException as {@link #add(String, InputStream, long, long)}
   */
  void replace(String name, byte[] bytes) throws IOException;

  /**
   * As {@link #replace(String, InputStream, long, long)}, recording the given owner, group and
   * mode instead of the writer's default.
   *
   * @param name the member's name
   * @param in its bytes (not closed)
   * @param length its length in bytes
   * @param modificationTime milliseconds since the epoch, or {@link MemberStatus#UNKNOWN_TIME}
   * @param access its owner, group and mode bits
   * @throws IOException as {@link #add(String, InputStream, long, long, MemberAccess)}
   */
  void replace(String name, InputStream in, long length, long modificationTime,
      MemberAccess access) throws IOException;

  /**
   * Adds every file below the given roots, on any Hadoop file system; a member's name is its
   * path relative to its root, its time the file's modification time, its owner, group and
   * mode the file's (on a local file system without POSIX attributes, the writer's default
   * access). One walk checks every
   * name first (two roots giving one name, names the archive has), so a refused tree adds
   * nothing; the writer's threads then merge the files in parallel.
   *
   * @param roots directories (or single files) to add
   * @param existing what to do with names the archive already has
   * @throws DuplicateNameException if two roots give the same name
   * @throws NameExistsException if the archive has names and {@code existing} refuses them
   * @throws IOException if a source cannot be read or the file system fails
   */
  void addTree(List<Path> roots, ExistingNames existing) throws IOException;

  /**
   * Deletes a member as part of this change.
   *
   * @param name the member's name
   * @throws FileNotInArchiveException if the archive has no such member
   * @throws IOException if the file system fails; deleting and adding one name in one change
   *     fails the commit with {@link DuplicateNameException}
   */
  void delete(String name) throws IOException;

  /**
   * Asks the next commit to rewrite the part files whose live fraction (bytes of members not
   * deleted or replaced) is below {@code minLiveFraction} into new ones, drop the old ones and
   * merge the names files into one. Must be the only change of its commit.
   *
   * @param minLiveFraction between 0 and 1: 0.5 rewrites parts that are more than half dead
   * @throws IllegalArgumentException if the fraction is outside [0, 1]
   * @throws IllegalStateException if members were added or deleted and not committed
   */
  void compact(double minLiveFraction);

  /**
   * Publishes the change as one new generation, atomically. On any failure the change is
   * dropped and the archive stays as it was. A create commits its first generation even with
   * no member.
   *
   * @return what was committed; a failure after the commit point (removing files the new
   *     generation no longer needs, say) does not fail the commit but is one of its warnings
   * @throws IllegalStateException if there is nothing to commit
   * @throws IOException if the commit fails (the archive is as it was), or, rarely, if the file
   *     system failed at the commit point itself in a way that leaves it unknown whether the
   *     change was committed (the message says so; nothing was removed, and the archive holds
   *     either the change or the generation before it)
   */
  CommitResult commit() throws IOException;

  /**
   * Drops the change; the archive stays as it was.
   *
   * @throws IOException if removing the change's files fails (they are removed by the next
   *     writer then)
   */
  void abort() throws IOException;

  /**
   * Aborts what was not committed and releases the lock. A create that never committed
   * removes the archive's directory. A writer that committed does not throw for a lock it
   * could not release (its commits stand; the failure is logged, and the next writer takes
   * over a lock whose holder is gone).
   *
   * @throws IOException if the file system fails
   */
  @Override
  void close() throws IOException;
}
