package org.hpf.internal.write;

import java.util.ArrayList;
import java.util.List;

/**
 * The symbolic links one walk of the sources met: how many it followed or skipped, and the
 * dangling ones (whose target does not exist; never archived), with the first few paths.
 */
public final class SourceLinks {
  private static final int SHOWN = 5;

  private long followed;
  private long skipped;
  private long dangling;
  private final List<String> firstDangling = new ArrayList<>();

  synchronized void followed() {
    followed++;
  }

  synchronized void skipped() {
    skipped++;
  }

  synchronized void dangling(String path) {
    dangling++;
    if (firstDangling.size() < SHOWN) {
      firstDangling.add(path);
    }
  }

  public synchronized long followedCount() {
    return followed;
  }

  public synchronized long skippedCount() {
    return skipped;
  }

  public synchronized long danglingCount() {
    return dangling;
  }

  /** The first few dangling links' paths. */
  public synchronized List<String> firstDangling() {
    return List.copyOf(firstDangling);
  }

  public synchronized boolean any() {
    return followed + skipped + dangling > 0;
  }

  /** One line: "2 followed, 3 skipped, 1 dangling (not archived: /src/a/old.log)". */
  public synchronized String describe() {
    String text = followed + " followed, " + skipped + " skipped, " + dangling + " dangling";
    if (dangling > 0) {
      text += " (not archived: " + String.join(", ", firstDangling)
          + (dangling > firstDangling.size() ? ", ..." : "") + ")";
    }
    return text;
  }
}
