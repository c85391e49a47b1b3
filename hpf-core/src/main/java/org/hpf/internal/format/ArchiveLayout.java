package org.hpf.internal.format;

import java.util.Locale;

/** File names inside an archive directory (docs/FORMAT.md, "The archive directory"). */
public final class ArchiveLayout {
  public static final String LOCK = "_lock";
  /** Held, briefly, by the one process that takes over the lock of a writer that is gone. */
  public static final String LOCK_TAKEOVER = "_lock.takeover";
  /**
   * A releasing writer's lock, moved to a name of its own (plus its token) to be checked and
   * deleted; left over only by a writer that died releasing.
   */
  public static final String LOCK_RELEASED_PREFIX = "_lock.released-";
  public static final String JOURNAL_PREFIX = "_journal-";
  /** Work of merges that run elsewhere (a MapReduce job), until their driver commits it. */
  public static final String STAGING = "_staging";

  private ArchiveLayout() {}

  public static String part(int id) {
    return String.format(Locale.ROOT, "part-%06d", id);
  }

  /** The id of the part file {@code name}, or -1 if it names none. */
  public static int partId(String name) {
    String digits = name.startsWith("part-") ? name.substring(5) : "";
    if (digits.length() < 6 || !digits.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * The generation that wrote the index, directory, names or journal file {@code name}, or -1
   * if it is none of those.
   */
  public static long generationOf(String name) {
    String rest;
    if (name.startsWith("index-") || name.startsWith("names-")) {
      rest = name.substring(6);
    } else if (name.startsWith("directory-")) {
      rest = name.substring(10);
    } else if (name.startsWith(JOURNAL_PREFIX)) {
      rest = name.substring(JOURNAL_PREFIX.length());
    } else {
      return -1;
    }
    int end = rest.indexOf('-');
    String digits = end < 0 ? rest : rest.substring(0, end);
    if (digits.length() != 10 || !digits.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    return Long.parseLong(digits);
  }

  public static String index(long generation, int bucketId) {
    return String.format(Locale.ROOT, "index-%s-%06d", Manifest.generationName(generation),
        bucketId);
  }

  public static String directory(long generation) {
    return "directory-" + Manifest.generationName(generation);
  }

  /**
   * Names segment {@code n} written by {@code generation} (0 is its own changes; higher,
   * merges).
   */
  public static String names(long generation, int n) {
    return "names-" + Manifest.generationName(generation) + "-" + n;
  }

  public static String journal(long generation) {
    return JOURNAL_PREFIX + Manifest.generationName(generation);
  }

  public static String temporaryManifest(long generation, String unique) {
    return Manifest.DIR + "/.tmp-" + Manifest.PREFIX + Manifest.generationName(generation) + "-"
        + unique;
  }
}
