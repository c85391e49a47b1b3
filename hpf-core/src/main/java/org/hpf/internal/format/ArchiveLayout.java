package org.hpf.internal.format;

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
    return "part-" + zeroPadded(id, 6);
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

  /**
   * True for an index or names file: written by the commit of its generation only, so one that
   * exists when the lock holder writes that generation is a leftover of a writer that built the
   * same generation and never committed it.
   */
  public static boolean isCommitFile(String name) {
    return (name.startsWith("index-") || name.startsWith("names-")) && generationOf(name) > 0;
  }

  /** True for a names segment ({@link #names}). */
  public static boolean isNames(String name) {
    return name.startsWith("names-");
  }

  public static String index(long generation, int bucketId) {
    return "index-" + Manifest.generationName(generation) + "-" + zeroPadded(bucketId, 6);
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

  /**
   * {@code value} in decimal, padded with zeros to {@code width} characters (the sign counts),
   * as {@code String.format(Locale.ROOT, "%0<width>d", value)} writes it. A reader names the
   * index file of every bucket it looks up, so this runs once per lookup: the formatter's
   * parsing took a fifth of a lookup's time.
   */
  static String zeroPadded(long value, int width) {
    String digits = Long.toString(value);
    if (digits.length() >= width) {
      return digits;
    }
    StringBuilder padded = new StringBuilder(width);
    int start = 0;
    if (value < 0) {
      padded.append('-');
      start = 1;
    }
    for (int i = digits.length(); i < width; i++) {
      padded.append('0');
    }
    return padded.append(digits, start, digits.length()).toString();
  }
}
