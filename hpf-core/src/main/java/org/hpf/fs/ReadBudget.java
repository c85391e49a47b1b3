package org.hpf.fs;

/**
 * What the read-ahead may read before it knows the bytes will be served: members read whole
 * are read either alone (exactly their entry) or in a window of entries around them, and a
 * window is paid for out of the bytes served so far, so that the bytes read for them never
 * exceed {@value #RATIO} times the stored bytes of the members served, whatever the order of
 * the opens. Each member read alone earns half its entry length; each served from a window
 * earns one and a half times its length (it cost nothing more); a window costs its length when
 * it is read, in full, before any of it is used. The credit is capped, so that a long scan
 * does not leave a large credit to be spent on windows nobody uses. Thread-safe.
 */
final class ReadBudget {
  /** Bytes read for members read whole, at most, per stored byte served. */
  static final double RATIO = 1.5;

  /** Credit in half bytes: 3 per byte served, less 2 per byte read. */
  private long halfBytes;
  private final long capHalfBytes;

  /** @param capBytes the most credit kept (bytes) */
  ReadBudget(long capBytes) {
    this.capHalfBytes = 2 * Math.max(0, capBytes);
  }

  /** A member's entry of {@code entryLength} bytes was read alone and served. */
  synchronized void servedAlone(long entryLength) {
    add(entryLength);
  }

  /** A member's entry of {@code entryLength} bytes was served from a window read before. */
  synchronized void servedFromWindow(long entryLength) {
    add(3 * entryLength);
  }

  /**
   * Takes the credit for a window of {@code wanted} bytes, or fewer, but at least
   * {@code least}, read to serve at once a member whose entry of {@code entryLength} bytes it
   * holds (that member's share counts towards it): the bytes granted (at most {@code wanted}),
   * or 0 if the credit is short of {@code least}. The member is then served from the window
   * without {@link #servedFromWindow}.
   */
  synchronized long take(long wanted, long least, long entryLength) {
    long credit = (halfBytes + 3 * entryLength) / 2;
    if (credit < least || wanted < least) {
      return 0;
    }
    long granted = Math.min(wanted, credit);
    halfBytes = Math.min(capHalfBytes, halfBytes + 3 * entryLength - 2 * granted);
    return granted;
  }

  /** The bytes a window may read now. */
  synchronized long credit() {
    return halfBytes / 2;
  }

  private void add(long half) {
    halfBytes = Math.min(capHalfBytes, halfBytes + half);
  }
}
