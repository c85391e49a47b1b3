package org.hpf.internal.write;

import java.util.ArrayList;
import java.util.List;

/** Joins the warnings of the steps of one operation. */
final class Warnings {
  private Warnings() {}

  static List<String> join(List<String> first, List<String> more) {
    if (more.isEmpty()) {
      return first;
    }
    List<String> all = new ArrayList<>(first);
    all.addAll(more);
    return all;
  }
}
