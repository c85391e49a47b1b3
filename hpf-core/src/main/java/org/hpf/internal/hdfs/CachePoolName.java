package org.hpf.internal.hdfs;

import org.apache.hadoop.fs.Path;
import org.hpf.WriteSettings;

/**
 * The rules a cache pool name hpf uses must keep, and how the commands hpf suggests spell it.
 *
 * <p>HDFS refuses only an empty name ({@code CachePoolInfo.validateName}, on the client and the
 * NameNode). hpf refuses more: a name with a control character (a line break, a tab) or with
 * white space at either end, which HDFS would keep but which neither {@code hdfs cacheadmin
 * -listPools} nor hpf's one-line messages could show as it is (a line break in an owner's name
 * would print a line of its own). Such a name is refused, never mapped to another: a mapping
 * could give two owners one pool, and each would list the other's directives.
 */
public final class CachePoolName {
  private CachePoolName() {}

  /**
   * {@code name}, built from {@code setting} (with {@code owner}, the owner of {@code archive}'s
   * directory, in place of {@link WriteSettings#CACHE_POOL_OWNER}, or null), if it is valid.
   */
  static String check(String name, String setting, String owner, Path archive)
      throws InvalidCachePoolException {
    String problem = problem(name);
    if (problem == null) {
      return name;
    }
    String from = owner == null ? "" : " and the owner '" + escaped(owner) + "' of its directory";
    throw new InvalidCachePoolException("cache pool name '" + escaped(name) + "' for " + archive
        + " (from the setting '" + escaped(setting) + "'" + from + ") is not valid: " + problem
        + "; name another pool with --cache-pool or " + WriteSettings.CACHE_POOL_KEY);
  }

  /** What makes {@code name} (or a pool setting) invalid, or null. */
  public static String problem(String name) {
    if (name.isEmpty()) {
      return "HDFS refuses an empty name";
    }
    if (name.chars().anyMatch(Character::isISOControl)) {
      return "it holds a control character, which no listing or message shows as it is";
    }
    if (!name.equals(name.strip())) {
      return "it begins or ends with white space, which no listing shows";
    }
    return null;
  }

  /** {@code word} as a shell reads it back: single-quoted where it holds more than a name. */
  static String quoted(String word) {
    return word.matches("[A-Za-z0-9_@%+=:,./-]+") ? word
        : "'" + word.replace("'", "'\\''") + "'";
  }

  /** {@code text} on one line: each control character as a Java escape. */
  private static String escaped(String text) {
    StringBuilder out = new StringBuilder();
    for (char c : text.toCharArray()) {
      switch (c) {
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> out.append(Character.isISOControl(c)
            ? String.format("\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    return out.toString();
  }
}
