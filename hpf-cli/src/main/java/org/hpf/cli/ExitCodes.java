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
  /** Any other failure: I/O error, file system unreachable, permission denied, a bug. */
  public static final int ERROR = 1;
  /** Bad usage or input: unknown option, bad value, invalid or duplicate member names. */
  public static final int USAGE = 2;
  /** The archive, the member or a source does not exist (or the path holds no archive). */
  public static final int NOT_FOUND = 3;
  /** The archive's bytes fail their checks (checksum, magic, structure). */
  public static final int CORRUPT = 4;
  /** The archive was written in a format version this hpf does not read. */
  public static final int VERSION = 5;
  /** The archive to create, or the output file of {@code get} (without --force), exists. */
  public static final int EXISTS = 6;
  /** Another writer holds the archive's lock. */
  public static final int LOCKED = 7;

  private ExitCodes() {}

  /** Code and description of every exit code, for the usage help. */
  public static Map<String, String> descriptions() {
    Map<String, String> map = new LinkedHashMap<>();
    map.put(" " + OK, "ok");
    map.put(" " + ERROR, "error (I/O, file system, permission, internal)");
    map.put(" " + USAGE, "bad usage or input (options, sizes, member names)");
    map.put(" " + NOT_FOUND, "not found: archive, member or source");
    map.put(" " + CORRUPT, "corrupt archive");
    map.put(" " + VERSION, "unsupported archive format version");
    map.put(" " + EXISTS, "archive or output file exists (get: use --force)");
    map.put(" " + LOCKED, "archive locked by another writer");
    return map;
  }
}
