package org.hpf.internal.read;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The buckets of one reader whose function could not be loaded or evaluated (written by another
 * sux4j, refused by the deserialization filter, a codec this reader does not know, or damage
 * confined to the function section): they are read by searching their sorted records instead
 * (docs/FORMAT.md, "Finding a record without the function"). The reader says so once, as a
 * warning, and goes on; every member stays readable.
 */
final class UnreadableFunctions {
  private static final Logger LOG = LoggerFactory.getLogger(UnreadableFunctions.class);

  private final AtomicLong count = new AtomicLong();

  /** Notes that {@code file}'s function is unusable; warns the first time only. */
  void report(String file, Exception cause) {
    if (count.getAndIncrement() == 0) {
      LOG.warn("{}: the bucket's function cannot be used ({}); records of such buckets are "
          + "found by searching their sorted records, which costs a few more reads per lookup "
          + "(hpf verify lists every such bucket)", file, cause.getMessage());
    }
  }

  /** Buckets reported so far. */
  long count() {
    return count.get();
  }
}
