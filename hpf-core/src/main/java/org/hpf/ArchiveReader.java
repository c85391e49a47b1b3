package org.hpf;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import org.apache.hadoop.fs.BlockLocation;

/**
 * Reads the members of one archive, as of the generation it opened (see {@link #refresh()}).
 * Open one with {@link HpfArchive#openReader}; it is thread-safe, and meant to be kept open
 * and shared: opening costs reading the manifest, after which a lookup costs no NameNode call
 * once the files it needs are open.
 *
 * <p>A lookup reads at most one bucket's function (once per bucket, then kept), one 40-byte
 * record and the member's entry: on HDFS, two positioned reads for a member whose bucket is
 * loaded. Every read is checked against its checksums; damage fails with
 * {@link CorruptArchiveException} and is never returned as data.
 */
public interface ArchiveReader extends Closeable {
  /**
   * Reads a member whole.
   *
   * @param name the member's name
   * @return its bytes, checked against the CRC32C it was stored with
   * @throws FileNotInArchiveException if the archive has no such member
   * @throws CorruptArchiveException if what was read is damaged
   * @throws IOException if the file system fails
   */
  byte[] get(String name) throws IOException;

  /**
   * Opens a member as a stream; no byte is returned before it was checked. Members up to 1 MiB,
   * and compressed ones, are read and checked whole before the first byte is returned; a larger
   * raw member streams a 64 KiB chunk at a time, each checked against its chunk checksum (so a
   * skip and a read in the middle are checked too), and against its whole checksum at the end
   * (an archive written before chunk checksums: the whole member is read and checked first).
   *
   * @param name the member's name
   * @return a stream of its bytes; close it
   * @throws FileNotInArchiveException if the archive has no such member
   * @throws IOException if the file system fails or the member is damaged
   */
  InputStream open(String name) throws IOException;

  /**
   * Whether the archive has a member: a file, as Hadoop's {@code FileSystem.isFile} says
   * (a directory is no member: see {@link #isDirectory}). Costs one record read, no entry
   * read, for an archive whose names are hashed with SHA-256 (every archive created by this
   * version).
   *
   * @param name the name to look for
   * @return true when it is a member
   * @throws IOException if the file system fails or the index is damaged
   */
  boolean exists(String name) throws IOException;

  /**
   * Whether a name is a directory of the archive: some member's name starts with it and a
   * {@code /} ({@code "app-1"} for {@code app-1/a.log}); {@code ""} is the root, a directory
   * of every archive. Directories are not stored: this reads the names files up to the first
   * name below it, as {@code hpf://} does.
   *
   * @param name the directory's path, without or with a trailing {@code /}
   * @return true when members are below it
   * @throws IOException if the file system fails or a names file is damaged
   */
  boolean isDirectory(String name) throws IOException;

  /**
   * The status of a member: its length and modification time, from its 40-byte index record
   * (for archives created before format version 2, from its entry's header).
   *
   * @param name the member's name
   * @return its status
   * @throws FileNotInArchiveException if the archive has no such member
   * @throws IOException if the file system fails or the index is damaged
   */
  MemberStatus stat(String name) throws IOException;

  /**
   * Lists the members below a directory, recursively, as Hadoop's
   * {@code FileSystem.listFiles(dir, true)} does: {@code "app-1"} (or {@code "app-1/"}) lists
   * {@code app-1/a.log} and {@code app-1/x/b.log}, never {@code app-10/c.log}; {@code ""} lists
   * every member; a member's own name lists that member. In increasing UTF-8 byte order,
   * streamed from the names files without reading the index.
   *
   * @param directory the directory's path, without or with a trailing {@code /}
   * @return the members; empty when there is nothing below it; close it if not read to its end
   * @throws IOException if the file system fails (or, from the iterator, if a names file is
   *     damaged)
   */
  MemberIterator list(String directory) throws IOException;

  /**
   * Lists every member, as {@link #list(String) list("")}.
   *
   * @return the members; close it if not read to its end
   * @throws IOException as {@link #list(String)}
   */
  default MemberIterator list() throws IOException {
    return list("");
  }

  /**
   * Reads many members at once, handing each to {@code handler} as it arrives. Their index
   * records are looked up together; entries that lie close in one part file are read with one
   * positioned read, and reads in different part files (or far apart) run in parallel, or as
   * one vectored read where the file system has a native one. Memory stays within the
   * settings' window ({@link BatchRead#windowBytes()} says what it counts, and what becomes of
   * a member larger than it).
   *
   * <p>Each name gets one call of the handler, on the calling thread, in part file and offset
   * order (names not in the archive first), or in the order given with
   * {@link BatchRead#withCallerOrder}; a name given twice is handed out twice. A name the
   * archive does not have is a {@link BatchMember} whose {@link BatchMember#found()} is false,
   * and a damaged member one whose {@link BatchMember#bytes()} throws the
   * {@link CorruptArchiveException} a get would: neither stops the others. The batch stops
   * only when the handler throws, or a lookup in the index fails.
   *
   * @param names the members' names
   * @param settings how to read: window, gaps, threads, order
   * @param handler receives each member
   * @throws IOException what the handler threw, or if the index cannot be read
   */
  void readAll(Collection<String> names, BatchRead settings, MemberHandler handler)
      throws IOException;

  /**
   * As {@link #readAll(Collection, BatchRead, MemberHandler)}, with the default settings.
   *
   * @param names the members' names
   * @param handler receives each member
   * @throws IOException as {@link #readAll(Collection, BatchRead, MemberHandler)}
   */
  default void readAll(Collection<String> names, MemberHandler handler) throws IOException {
    readAll(names, BatchRead.defaults(), handler);
  }

  /**
   * Reads every member below a directory, as {@link #list(String)} selects them, with
   * {@link #readAll(Collection, BatchRead, MemberHandler) readAll}: the names are streamed
   * from the names files, so memory does not grow with the number of members; the caller's
   * order is the listing's. The names files say where each member lies, so no index is read
   * (except for members listed by archives of older versions). Nothing below it: the handler
   * is never called.
   *
   * @param directory the directory's path, without or with a trailing {@code /}
   * @param settings how to read: window, gaps, threads, order
   * @param handler receives each member
   * @throws IOException what the handler threw, or if a names file or the index cannot be read
   */
  void readDirectory(String directory, BatchRead settings, MemberHandler handler)
      throws IOException;

  /**
   * Where a member's bytes are: the blocks of its part file that hold its entry, for placing
   * work near the data (as an InputFormat does).
   *
   * @param name the member's name
   * @return the block locations, with offsets relative to the member's entry
   * @throws FileNotInArchiveException if the archive has no such member
   * @throws IOException if the file system fails
   */
  BlockLocation[] blockLocations(String name) throws IOException;

  /**
   * Moves to the newest committed generation, if a writer committed one since this reader
   * opened (one NameNode listing of the archive's manifests). Safe while other threads read:
   * calls, streams and listings already started finish on the generation they began with, whose
   * files are closed when the last of them is done.
   *
   * @return true when the reader now reads a newer generation
   * @throws IOException if the newer generation cannot be opened; the reader then stays on its
   *     generation
   */
  boolean refresh() throws IOException;

  /**
   * Closes the reader. Streams and listings still open keep their generation's files until they
   * are closed; every later call fails with an {@link IOException} saying the reader is
   * closed, as a closed stream's reads do.
   *
   * @throws IOException if closing the archive's files fails
   */
  @Override
  void close() throws IOException;
}
