package org.hpf.fs;

import java.util.function.LongPredicate;

/**
 * The last opens of members read whole in one part, and whether they say that the members
 * around the next one will be opened soon: when it is the third or later in a row (each entry
 * starting where one opened lately ended, so that several readers may each scan their own run,
 * or at most {@value #GAP} bytes after the entry opened last, past entries a scan skips), or
 * when many of the last opens fell in its region of the part, many more than opens spread over
 * the whole part would put there (a reader that takes the members of a region in any order).
 * Thread-safe.
 */
final class RecentOpens {
  /** Opens remembered. */
  static final int KEPT = 64;
  /** How far past the end of the entry opened last the next may start and be in a row. */
  static final long GAP = 64 * 1024;
  /** Opens in a row, this one included, that start a window. */
  static final int RUN = 3;
  /**
   * Opens in one region among the last {@value #KEPT}, this one included, that start one: far in
   * the tail of what shuffled opens put in a region. With two of the last 64 in a region on
   * average, 16 others in one region come about once in a billion opens; 8 came about once in
   * a thousand, and drained the budget on windows that went unused.
   */
  static final int DENSE = 17;
  /** How many times the opens spread evenly over the part a region must have had. */
  static final int OVER_EVEN = 8;

  private final long[] starts = new long[KEPT];
  private final long[] ends = new long[KEPT];
  private final int[] runs = new int[KEPT];
  /** The bytes of the entries of each open's run, its own included. */
  private final long[] runBytes = new long[KEPT];
  private int next;
  private int size;

  /** How many times the bytes a run has opened so far its next window reads, at most. */
  static final int RUN_GROWTH = 8;

  /**
   * A window to read: from {@code start} (an entry's first byte), at most {@code bytes}, and
   * not worth reading unless it reaches at least {@code ahead} bytes past the end of the entry
   * opened (a window that ends inside the next entry serves nothing more). A run reads
   * {@value #RUN_GROWTH} times the bytes it has opened so far, so that its windows grow as it
   * goes on and a few opens in a row by chance cost little; and twice its mean entry ahead, so
   * that a small entry among large ones does not start a window too small to hold the next.
   */
  record Plan(long start, long bytes, long ahead) {}

  /**
   * Records the open of the entry {@code [offset, offset + length)} and returns the window the
   * opens before it call for (from {@code offset}, or from the first entry before it in its
   * region that was opened lately and that no window holds), or null.
   *
   * @param region the bytes of a region (the largest window)
   * @param partLength the bytes of the part
   * @param held whether a window kept holds the entry that starts at an offset
   */
  synchronized Plan opened(long offset, long length, long region, long partLength,
      LongPredicate held) {
    int run = 1;
    long bytesOfRun = length;
    int inRegion = 1;
    long regionStart = offset - offset % region;
    long lowest = offset;
    int latest = (next + KEPT - 1) % KEPT;
    for (int i = 0; i < size; i++) {
      if (starts[i] == offset) {
        continue; // the same member again says nothing of its neighbours
      }
      boolean continues = offset == ends[i]
          || i == latest && offset > ends[i] && offset - ends[i] <= GAP;
      if (continues && runs[i] + 1 > run) {
        run = runs[i] + 1;
        bytesOfRun = runBytes[i] + length;
      }
      if (starts[i] >= regionStart && starts[i] < regionStart + region) {
        inRegion++;
        if (starts[i] < lowest && !held.test(starts[i])) {
          lowest = starts[i];
        }
      }
    }
    double even = (double) (size + 1) * region / Math.max(region, partLength);
    Plan plan = null;
    if (run >= RUN) {
      plan = new Plan(offset, Math.min(region, RUN_GROWTH * bytesOfRun),
          Math.max(length, 2 * bytesOfRun / run));
    } else if (inRegion >= DENSE && inRegion >= OVER_EVEN * even) {
      plan = new Plan(lowest, region, length);
    }
    starts[next] = offset;
    ends[next] = offset + length;
    runs[next] = run;
    runBytes[next] = bytesOfRun;
    next = (next + 1) % KEPT;
    size = Math.min(KEPT, size + 1);
    return plan;
  }
}
