package org.hpf.cli;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The files {@code hpf extract} could not give their recorded owner or group: counted, the first
 * named, for one warning at the end (the files stay: their bytes and mode are restored).
 */
final class OwnerFailures {
  private final AtomicLong count = new AtomicLong();
  private final AtomicReference<String> first = new AtomicReference<>();

  /** Notes that {@code target} keeps the extracting user as owner or group. */
  void add(Object target, String owner, String group, String reason) {
    count.incrementAndGet();
    first.compareAndSet(null, target + " (" + owner + ":" + group + "): " + reason);
  }

  /** The warning to print, or null if every owner and group was restored. */
  String warning() {
    long n = count.get();
    if (n == 0) {
      return null;
    }
    return "could not restore the recorded owner or group of " + Units.count(n)
        + " file(s), which belong to the user who extracted them (first: " + first.get() + ")";
  }
}
