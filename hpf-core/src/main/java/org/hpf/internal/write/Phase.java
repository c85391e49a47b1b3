package org.hpf.internal.write;

/** The phases of a change, in the order a create goes through them (see {@link PhaseClock}). */
public enum Phase {
  /** Taking the lock and creating the archive's directory. */
  OPEN("open", "open"),
  /** Reading the sources' directories. */
  LISTING("listing", "listing"),
  /** The status of each listed entry (one per file where the listing carries none). */
  STAT("stat", "stat"),
  /** Finding the names of the sources' owners and groups (once per user and group). */
  OWNERS("owner names", "ownerNames"),
  /** The rest of the walk: names checked, duplicates sorted, who may read the archive decided. */
  SURVEY("survey", "survey"),
  /** Reading the sources and writing the parts, until every part is sealed. */
  MERGE("merge", "merge"),
  /** The names file of the generation. */
  NAMES("names file", "namesFile"),
  /** The index: bucket files, functions and directory. */
  INDEX("index", "index"),
  /** The manifest written and published, the archive's access set: the commit point. */
  COMMIT("commit", "commit"),
  /** HDFS features after the commit: where the parts' replicas are, index files pinned. */
  PINNING("cache pinning", "cachePinning"),
  /** Journal, scratch files and files no generation needs removed; the lock released. */
  CLEANUP("clean-up", "cleanUp"),
  /** Whatever no phase above took. */
  OTHER("other", "other");

  private final String label;
  private final String key;

  Phase(String label, String key) {
    this.label = label;
    this.key = key;
  }

  /** How a summary names it ("owner names"). */
  public String label() {
    return label;
  }

  /** How JSON names it ("ownerNames"). */
  public String key() {
    return key;
  }
}
