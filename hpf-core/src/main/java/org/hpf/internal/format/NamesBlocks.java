package org.hpf.internal.format;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the readers of one names segment have learned of its blocks, shared by them: where each
 * block read so far starts, its first name and how many entries come before it, and the checked
 * entries of the few blocks read last. A listing of a directory starts at the last block whose
 * first name sorts before the directory's names instead of at the segment's first block, and a
 * block read moments ago (a listing of the directory's parent, of its sibling) is not read
 * again: a walk of a tree lists each directory at the cost of its own names, not of every name
 * before it. Thread-safe.
 */
public final class NamesBlocks {
  /** Decoded blocks kept per segment: 64 KiB of names each. */
  private static final int RECENT = 4;

  /**
   * A checked block: where it starts, where the next one starts, its first name and the entries
   * of the segment before it.
   */
  record Block(long offset, long end, String firstName, long entriesBefore) {}

  /** The blocks learned so far: the segment's first blocks, in order, with no gap. */
  private final List<Block> known = new ArrayList<>();
  private final Map<Long, List<NameEntry>> recent = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, List<NameEntry>> eldest) {
      return size() > RECENT;
    }
  };
  /** The segment's format version, from its header (0 until a reader has read it). */
  private int version;

  /**
   * The block a listing of names at or after {@code from} starts at: the last known block whose
   * first name sorts before it (every name of the blocks before it does too), else the first
   * block once a reader has checked the header; null to start at the header.
   */
  synchronized Block startFor(String from) {
    if (version == 0 || from == null || from.isEmpty()) {
      return null;
    }
    int low = 0;
    int high = known.size() - 1;
    Block start = null;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      Block block = known.get(mid);
      if (MemberNames.compare(block.firstName(), from) < 0) {
        start = block;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return start != null || known.isEmpty() ? start : known.get(0);
  }

  synchronized int version() {
    return version;
  }

  synchronized void versionRead(int headerVersion) {
    version = headerVersion;
  }

  /** The checked entries of the block at {@code offset} if it was read lately, else null. */
  synchronized Cached recent(long offset) {
    List<NameEntry> entries = recent.get(offset);
    if (entries == null) {
      return null;
    }
    int index = indexOf(offset);
    return index < 0 ? null : new Cached(known.get(index), entries);
  }

  /** A block read lately: where it is and its entries. */
  record Cached(Block block, List<NameEntry> entries) {}

  /** Remembers a block a reader read and checked, with its entries. */
  synchronized void learned(Block block, List<NameEntry> entries) {
    long next = known.isEmpty() ? -1 : known.get(known.size() - 1).end();
    if (known.isEmpty() ? block.entriesBefore() == 0 : block.offset() == next) {
      known.add(block);
    }
    if (indexOf(block.offset()) >= 0) {
      recent.put(block.offset(), List.copyOf(entries));
    }
  }

  private int indexOf(long offset) {
    int low = 0;
    int high = known.size() - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      long at = known.get(mid).offset();
      if (at == offset) {
        return mid;
      }
      if (at < offset) {
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return -1;
  }
}
