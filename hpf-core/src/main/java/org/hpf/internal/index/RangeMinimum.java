package org.hpf.internal.index;

/**
 * Leftmost-minimum queries over an array of small values, in memory only: the array, then the
 * minimum of each run of 32 entries, the minimum of each 32 of those, and so on up to a level of
 * at most 64 entries. A query scans at most a run's worth at each end of each level, so it costs
 * about 3 x 32 comparisons per level (three levels at 10^6 entries) instead of one per entry,
 * and the levels take 1/31 of the array's size.
 */
final class RangeMinimum {
  private static final int SHIFT = 5;
  private static final int RUN = 1 << SHIFT;

  /** levels[0] is the array; levels[k][j] the minimum of levels[k - 1][32 j .. 32 j + 31]. */
  private final byte[][] levels;

  RangeMinimum(byte[] values) {
    java.util.List<byte[]> built = new java.util.ArrayList<>();
    built.add(values);
    byte[] level = values;
    while (level.length > 2 * RUN) {
      byte[] up = new byte[(level.length + RUN - 1) >>> SHIFT];
      for (int j = 0; j < up.length; j++) {
        up[j] = level[scan(level, j << SHIFT, Math.min(level.length, (j + 1) << SHIFT))];
      }
      built.add(up);
      level = up;
    }
    levels = built.toArray(new byte[0][]);
  }

  /** Entries of the levels above the array. */
  long summaryEntries() {
    long entries = 0;
    for (int k = 1; k < levels.length; k++) {
      entries += levels[k].length;
    }
    return entries;
  }

  /** The first position in [from, to) holding the smallest value there; from < to. */
  int leftmostMinimum(int from, int to) {
    return leftmostMinimum(0, from, to);
  }

  private int leftmostMinimum(int level, int from, int to) {
    byte[] values = levels[level];
    if (to - from <= 2 * RUN || level + 1 == levels.length) {
      return scan(values, from, to);
    }
    // A partial run at each end, and the whole runs between through the level above.
    int firstRun = (from + RUN - 1) >>> SHIFT;
    int endRun = to >>> SHIFT;
    int best = from < firstRun << SHIFT ? scan(values, from, firstRun << SHIFT) : -1;
    int run = leftmostMinimum(level + 1, firstRun, endRun);
    int inRun = scan(values, run << SHIFT, (run + 1) << SHIFT);
    if (best < 0 || values[inRun] < values[best]) {
      best = inRun;
    }
    if (endRun << SHIFT < to) {
      int tail = scan(values, endRun << SHIFT, to);
      if (values[tail] < values[best]) {
        best = tail;
      }
    }
    return best;
  }

  private static int scan(byte[] values, int from, int to) {
    int best = from;
    for (int i = from + 1; i < to; i++) {
      if (values[i] < values[best]) {
        best = i;
      }
    }
    return best;
  }
}
