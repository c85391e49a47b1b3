package org.hpf.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The exit codes of {@code hpf}, documented here and only here ({@code --help} prints this
 * table). {@link ErrorHandler} is the one place that maps exceptions to them.
 */
public final class ExitCodes {
  /** Success. */
  public static final int OK = 0;
  /**
   * Any other failure: I/O error, file system unreachable, permission denied, out of memory, a
   * bug.
   */
  public static final int ERROR = 1;
  /**
   * Bad usage or input: unknown option, bad value, invalid or duplicate member names, a name that
   * would be a file and a directory at once.
   */
  public static final int USAGE = 2;
  /** The archive, the member or a source does not exist (or the path holds no archive). */
  public static final int NOT_FOUND = 3;
  /**
   * The archive's bytes fail their checks (checksum, magic, structure), verify found a problem,
   * or extract refused a member name that would escape its destination.
   */
  public static final int CORRUPT = 4;
  /** The archive was written in a format version this hpf does not read. */
  public static final int VERSION = 5;
  /**
   * The archive to create exists; an output file of {@code get} or {@code extract} exists
   * (without --force); names to append exist in the archive (without --replace).
   */
  public static final int EXISTS = 6;
  /** Another writer holds the archive's lock. */
  public static final int LOCKED = 7;
  /**
   * This writer's lock was taken over (it was judged gone, for example paused past the HDFS
   * lease's soft limit) or broken: the command stopped without committing more.
   */
  public static final int LOCK_LOST = 8;
  /**
   * A create or append refused, writing nothing: the archive would leave users unable to read
   * files they could read before (use --allow-access-loss to go ahead).
   */
  public static final int ACCESS_LOSS = 9;
  /**
   * A change refused, writing and deleting nothing: the archive is on a store where hpf cannot
   * commit it safely (no atomic rename and no conditional create; or the MapReduce build on an
   * object store). Reading works there.
   */
  public static final int UNSUPPORTED_STORE = 10;
  /**
   * Another writer committed first, or was changing the archive at the same time (on an object
   * store, where the lock does not exclude): nothing of this change was committed; run it again.
   */
  public static final int CONFLICT = 11;

  private ExitCodes() {}

  /** Code and description of every exit code, for the usage help. */
  public static Map<String, String> descriptions() {
    Map<String, String> map = new LinkedHashMap<>();
    map.put(" " + OK, "ok");
    map.put(" " + ERROR, "error (I/O, file system, permission, out of memory,"
        + " internal; a file of the archive this user may not read; a split refused to a user"
        + " who is not the superuser)");
    map.put(" " + USAGE, "bad usage or input (options, sizes, member names; a name that would"
        + " be a file and a directory)");
    map.put(" " + NOT_FOUND, "not found: archive, member or source; a directory or a plain"
        + " file that is not an hpf archive");
    map.put(" " + CORRUPT, "corrupt archive (verify found problems; extract refused a name"
        + " escaping its destination)");
    map.put(" " + VERSION, "unsupported archive format version");
    map.put(" " + EXISTS, "exists: archive to create, output file (use --force), name to"
        + " append (use --replace)");
    map.put(" " + LOCKED, "archive locked by another writer (hpf recover --break-lock if it"
        + " died)");
    map.put(" " + LOCK_LOST, "lock lost: taken over by another writer while this one was"
        + " stalled; nothing more committed");
    map.put(" " + ACCESS_LOSS, "refused: users would lose access to their files through the"
        + " archive; nothing written (--allow-access-loss)");
    map.put(UNSUPPORTED_STORE + "", "refused: the store offers no safe commit for this change;"
        + " nothing written; reading works");
    map.put(CONFLICT + "", "conflict: another writer committed first; nothing of this change"
        + " committed (run it again)");
    return map;
  }
}
