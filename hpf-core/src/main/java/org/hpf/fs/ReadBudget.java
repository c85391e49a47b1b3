package org.hpf.fs;

/**
 * What the read-ahead may read before it knows the bytes will be served. Every byte the file
 * system reads of an archive is charged here as it is read ({@link ChargedStorage}: entries,
 * windows, index files, manifests, part preambles; not the names segments that listings read),
 * and every member opened earns {@value #RATIO} times the stored length of its entry; a window
 * is read only when the credit pays for all of it. So the bytes read stay at most {@value
 * #RATIO} times the stored bytes of the members served, whatever the order of the opens, but
 * for the reads that no open can do without (a lookup's index, read before enough was served
 * to pay for it). The credit is capped, so that a long scan does not leave a large credit to be
 * spent on windows nobody uses. Thread-safe.
 */
final class ReadBudget {
  /** Bytes read, at most, per stored byte served. */
  static final double RATIO = 1.5;

  /** Credit in half bytes: 3 per stored byte served, less 2 per byte read. */
  private long halfBytes;
  /** Bytes of windows granted and not yet read (so not yet charged). */
  private long reserved;
  private final long capHalfBytes;

  /** @param capBytes the most credit kept (bytes) */
  ReadBudget(long capBytes) {
    this.capHalfBytes = 2 * Math.max(0, capBytes);
  }

  /** A member whose entry is {@code entryLength} bytes was opened. */
  synchronized void served(long entryLength) {
    halfBytes = Math.min(capHalfBytes, halfBytes + 3 * entryLength);
  }

  /** {@code bytes} of the archive were read. */
  synchronized void charge(long bytes) {
    halfBytes -= 2 * bytes;
  }

  /**
   * Grants a window of {@code wanted} bytes, or fewer, but at least {@code least}, to be read
   * to serve at once a member whose entry of {@code entryLength} bytes it holds (that member's
   * share counts towards it): the bytes granted (at most {@code wanted}), or 0 if the credit is
   * short of {@code least}. The bytes granted are held back from other windows until {@link
   * #release} says they were read (and charged); the member is then {@link #served}.
   */
  synchronized long take(long wanted, long least, long entryLength) {
    long credit = (halfBytes + 3 * entryLength) / 2 - reserved;
    if (credit < least || wanted < least) {
      return 0;
    }
    long granted = Math.min(wanted, credit);
    reserved += granted;
    return granted;
  }

  /** The window of {@code granted} bytes was read (or failed to be). */
  synchronized void release(long granted) {
    reserved -= granted;
  }
}
