package org.hpf.internal.write;

/**
 * The part files that writers fenced off by a broken lock may still add to an archive on an
 * object store, where a file appears only when it is closed: a recovery raises the part id floor
 * above all of them, so that the lock's rightful holder never picks a name one of them will
 * take (docs/CRASH-SAFETY.md, "Object stores").
 *
 * <p>A writer there confirms its lock before it creates each part, so once its lock is gone it
 * has at most one part open per lane, and at most one more id taken per lane that it will never
 * create: its parts lie below the first id above every part there plus twice its lanes. A
 * MapReduce build's tasks confirm nothing; they use only the ids below the limit their driver
 * recorded before the job started.
 *
 * @param unseen how many ids above the parts there a fenced writer may still take
 * @param idLimit the first id no fenced job may use, or 0
 */
record FencedParts(int unseen, int idLimit) {
  static final FencedParts NONE = new FencedParts(0, 0);
  /** For a holder whose line does not say its lanes (an earlier version's): a bound of plenty. */
  static final int LANES_UNKNOWN = 512;

  /** What the holder of {@code line}, whose lock was broken or taken over, may still add. */
  static FencedParts ofHolder(String line) {
    int lanes = LockLine.parse(line).lanes();
    return new FencedParts(2 * (lanes < 0 ? LANES_UNKNOWN : lanes), 0);
  }

  /** These and a job whose tasks use ids below {@code limit}. */
  FencedParts withIdLimit(int limit) {
    return new FencedParts(unseen, Math.max(idLimit, limit));
  }

  /** These and {@code other}. */
  FencedParts and(FencedParts other) {
    return new FencedParts(Math.max(unseen, other.unseen), Math.max(idLimit, other.idLimit));
  }

  boolean any() {
    return unseen > 0 || idLimit > 0;
  }

  /** The first part id none of them can take, where {@code aboveParts} is above every part. */
  int floor(int aboveParts) {
    return Math.max(Math.addExact(aboveParts, unseen), idLimit);
  }
}
