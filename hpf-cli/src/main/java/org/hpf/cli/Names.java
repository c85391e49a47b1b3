package org.hpf.cli;

import java.util.stream.Stream;
import org.hpf.internal.format.MemberNames;
import org.hpf.internal.format.NameEntry;

/** Selecting members by name prefix from an archive's sorted name stream. */
final class Names {
  private Names() {}

  /**
   * The entries whose names start with {@code prefix} (all when it is empty or null). Names are
   * sorted by their UTF-8 bytes, so the matches are contiguous: the stream skips the names
   * before them and ends after the last one, without reading the rest.
   */
  static Stream<NameEntry> withPrefix(Stream<NameEntry> entries, String prefix) {
    if (prefix == null || prefix.isEmpty()) {
      return entries;
    }
    return entries.dropWhile(e -> MemberNames.compare(e.name(), prefix) < 0)
        .takeWhile(e -> e.name().startsWith(prefix));
  }
}
