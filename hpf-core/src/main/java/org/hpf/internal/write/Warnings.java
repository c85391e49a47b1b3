package org.hpf.internal.write;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The warnings of one operation: what failed after its commit without undoing it. Its caller is
 * handed them with the result; each is also logged here, under this class's logger, for callers
 * that read logs. A caller that prints the warnings it is handed (the hpf command) turns this
 * logger off, so that each is said once.
 */
final class Warnings {
  private static final Logger LOG = LoggerFactory.getLogger(Warnings.class);

  private Warnings() {}

  static List<String> join(List<String> first, List<String> more) {
    if (more.isEmpty()) {
      return first;
    }
    List<String> all = new ArrayList<>(first);
    all.addAll(more);
    return all;
  }

  /** Adds {@code warning} about the archive at {@code location} to {@code warnings}, and logs it. */
  static void add(List<String> warnings, String location, String warning) {
    warnings.add(warning);
    LOG.warn("{}: {}", location, warning);
  }
}
