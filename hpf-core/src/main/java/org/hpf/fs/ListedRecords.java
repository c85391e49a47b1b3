package org.hpf.fs;

import java.util.LinkedHashMap;
import java.util.Map;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.read.HpfReader;

/**
 * The names entries of the members one generation's listings have shown lately, by name: an
 * open that follows a listing (a job's tasks, FsShell, Spark) takes the member's record from
 * its entry ({@link HpfReader#listedRecord}), looks nothing up and reads no index. At most
 * {@value #MAX} are kept, the least recently listed or opened dropped first (about 15 MiB for
 * names of 60 bytes). Thread-safe.
 */
final class ListedRecords {
  /** Records kept at most. */
  static final int MAX = 1 << 16;

  private final Map<String, NameEntry> entries = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, NameEntry> eldest) {
      return size() > MAX;
    }
  };

  /** A listing of this generation showed a member's names entry. */
  synchronized void listed(NameEntry entry) {
    entries.put(entry.name(), entry);
  }

  /**
   * The record of {@code member} of {@code reader}'s generation if a listing showed it lately
   * and its entry gives it, else null.
   */
  IndexRecord of(HpfReader reader, String member) {
    NameEntry entry;
    synchronized (this) {
      entry = entries.get(member);
    }
    return entry == null ? null : reader.listedRecord(entry);
  }
}
