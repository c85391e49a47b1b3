package org.hpf.fs;

import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.Codec;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.FileFooter;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.Manifest.PartInfo;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.read.EntryReader;
import org.hpf.internal.read.HpfReader;

/**
 * How the file system reads members it reads whole (compressed ones, and raw ones up to the
 * in-memory limit): each alone, with one positioned read of exactly its entry, unless the
 * opens before it in its part say that its neighbours will be opened soon; then with a window
 * of the part around it, one read of at most the window size, from which the members it holds
 * are served while it is kept.
 *
 * <p>What the file system reads, by order of the opens:
 * <ul>
 *   <li>In the order of the entries of a part (a job's scan: list, then open, read and close
 *       each member), from the third member in a row on, windows that each start at the entry
 *       opened (several readers may each scan their own run of one part).
 *   <li>In any order, but many members of one region of a part among the last opens (a task
 *       taking the members of a few blocks), a window from the first entry opened lately in
 *       that region.
 *   <li>In any other order (shuffled, by size, by name across parts, by name from a service),
 *       each member alone: its entry, and no byte more.
 * </ul>
 *
 * <p>A window is read only when it is paid for ({@link ReadBudget}): whatever the order, the
 * bytes read of the archive (entries, windows, and the index the lookups read) are at most
 * {@value ReadBudget#RATIO} times the stored bytes of the members served. The first windows of
 * a process are small and grow by half as they are used, up to the window size. Each member
 * served from a window is checked as a get checks it (header, chunk and content checksums)
 * before a byte of it is handed out, so a damaged entry in a window fails the open of its
 * member alone. In a part whose every entry is live, the window's entry headers also say where
 * each member is, so those opens need no index lookup either; nor do the opens of members a
 * listing by the same file system showed lately ({@link ListedRecords}).
 *
 * <p>At most {@value #WINDOWS} windows' worth of bytes are kept per file system, the least
 * recently used dropped first. Thread-safe.
 */
final class ReadAhead {
  /** Window sizes kept at most (in bytes, windows of any size together). */
  static final int WINDOWS = 4;
  /** Parts whose last opens are remembered. */
  private static final int TRACKED_PARTS = 64;

  private final long windowBytes;
  private final long inMemoryLimit;
  private final ReadBudget budget;
  private final Map<WindowKey, Window> windows = new LinkedHashMap<>(16, 0.75f, true);
  private long keptBytes;
  private final Map<PartKey, RecentOpens> opens = lru(TRACKED_PARTS);

  /**
   * @param windowBytes the most bytes a window reads (0: no read-ahead)
   * @param inMemoryLimit the largest raw member read whole (larger ones are read in place)
   */
  ReadAhead(long windowBytes, long inMemoryLimit) {
    this.windowBytes = Math.min(Math.max(0, windowBytes), Integer.MAX_VALUE - 64);
    this.inMemoryLimit = inMemoryLimit;
    this.budget = new ReadBudget(2 * this.windowBytes);
  }

  /** A part of one generation of one archive. */
  private record PartKey(ArchiveCache.OpenArchive archive, int part) {}

  /** A window of a part, by where it starts. */
  private record WindowKey(PartKey part, long start) {}

  /** Where an entry is in its part. */
  private record Slot(long offset, int length) {}

  /** Bytes of a part read ahead, from an entry's first byte on. */
  private record Window(long start, byte[] bytes, Map<String, Slot> members) {
    boolean covers(long offset, long length) {
      return offset >= start && offset + length <= start + bytes.length;
    }

    byte[] entry(long offset, long length) {
      int from = (int) (offset - start);
      return java.util.Arrays.copyOfRange(bytes, from, from + (int) length);
    }
  }

  /**
   * The bytes of {@code member} from a window of a wholly live part whose entries include its
   * entry, checked; null if no window has it.
   */
  byte[] fromWindow(ArchiveCache.OpenArchive archive, String member) throws IOException {
    PartKey key = null;
    Window window = null;
    Slot slot = null;
    synchronized (this) {
      for (Map.Entry<WindowKey, Window> e : windows.entrySet()) {
        Slot found = e.getKey().part().archive() == archive
            ? e.getValue().members().get(member) : null;
        if (found != null) {
          key = e.getKey().part();
          window = e.getValue();
          slot = found;
          windows.get(e.getKey()); // used: kept longest
          break;
        }
      }
    }
    if (slot == null) {
      return null;
    }
    opensOf(key).opened(slot.offset(), slot.length(), windowBytes, partLength(key),
        at -> true);
    EntryReader.Checked checked = EntryReader.decodeAt(window.entry(slot.offset(),
        slot.length()), slot.offset(), partFile(key));
    if (!checked.header().name().equals(member)) {
      throw new CorruptArchiveException(partFile(key), slot.offset(), "entry holds '"
          + checked.header().name() + "', its header was read as '" + member + "'");
    }
    budget.served(slot.length());
    return checked.bytes();
  }

  /**
   * The bytes of {@code member}, whose record a lookup found, read whole: from a window that
   * holds its entry, from a new window when the opens before it call for one and the budget
   * pays for it, else alone, as a get reads it.
   */
  byte[] read(ArchiveCache.OpenArchive archive, IndexRecord record, String member)
      throws IOException {
    HpfReader reader = archive.reader;
    PartKey key = new PartKey(archive, record.part());
    long offset = record.offset();
    long length = record.entryLength();
    Window window = windowCovering(key, offset, length);
    RecentOpens.Plan plan = windowBytes == 0 || length >= windowBytes ? null
        : opensOf(key).opened(offset, length, windowBytes, partLength(key),
            at -> holds(key, at));
    if (window != null) {
      byte[] bytes = reader.decode(record, member, window.entry(offset, length));
      budget.served(length);
      return bytes;
    }
    if (plan != null) {
      window = load(key, record, plan.start(), plan.bytes(), plan.ahead());
      if (window == null && plan.start() < offset) {
        // the budget may pay for less
        window = load(key, record, offset, plan.bytes(), plan.ahead());
      }
    }
    if (window == null) {
      byte[] bytes = reader.get(record, member);
      budget.served(length);
      return bytes;
    }
    byte[] bytes = reader.decode(record, member, window.entry(offset, length));
    budget.served(length);
    return bytes;
  }

  /** A member read in place (not read whole) was opened: its entry counts as served. */
  void servedInPlace(IndexRecord record) {
    budget.served(record.entryLength());
  }

  /** Charges {@code bytes} read of an archive ({@link ChargedStorage}) to the budget. */
  void charge(long bytes) {
    budget.charge(bytes);
  }

  private synchronized Window windowCovering(PartKey key, long offset, long length) {
    for (Map.Entry<WindowKey, Window> e : windows.entrySet()) {
      if (e.getKey().part().equals(key) && e.getValue().covers(offset, length)) {
        return windows.get(e.getKey()); // used: kept longest
      }
    }
    return null;
  }

  /**
   * Reads a window of at most {@code wanted} bytes from {@code start} (an entry's first byte, at
   * or before {@code record}'s entry), as far as the budget pays, and keeps it; null if the
   * budget cannot pay for one that holds {@code record}'s entry and {@code ahead} bytes past
   * it. The member of {@code record} is served from it at once.
   */
  private Window load(PartKey key, IndexRecord record, long start, long wanted, long ahead)
      throws IOException {
    HpfReader reader = key.archive().reader;
    ArchiveInput part = reader.partInput(record); // checks that the entry lies in the part
    PartInfo info = reader.manifest().part(key.part());
    long dataEnd = info.length() - FileFooter.SIZE;
    long entryEnd = record.offset() + record.entryLength();
    long least = entryEnd + ahead - start;
    // Up to the next window kept: no byte is read twice into windows.
    long end = Math.min(dataEnd, nextWindowStart(key, start));
    if (end < entryEnd) {
      return null; // a window kept starts inside the entry: it is read alone
    }
    long size = budget.take(Math.min(end - start, Math.max(wanted, least)),
        Math.min(least, end - start), record.entryLength());
    if (size == 0) {
      return null;
    }
    byte[] bytes;
    try {
      bytes = part.readFully(start, (int) size);
    } finally {
      budget.release(size);
    }
    Window window = new Window(start, bytes,
        info.allLive() ? membersOf(bytes, start, partFile(key)) : Map.of());
    keep(new WindowKey(key, start), window);
    return window;
  }

  /** Whether a window kept holds the byte at {@code offset} of the part (not a use of it). */
  private synchronized boolean holds(PartKey key, long offset) {
    for (Map.Entry<WindowKey, Window> e : windows.entrySet()) {
      if (e.getKey().part().equals(key) && e.getValue().covers(offset, 1)) {
        return true;
      }
    }
    return false;
  }

  /** Where the first window kept of the part after {@code start} starts, or no limit. */
  private synchronized long nextWindowStart(PartKey key, long start) {
    long next = Long.MAX_VALUE;
    for (Map.Entry<WindowKey, Window> e : windows.entrySet()) {
      if (e.getKey().part().equals(key) && e.getValue().start() > start) {
        next = Math.min(next, e.getValue().start());
      }
    }
    return next;
  }

  private synchronized void keep(WindowKey key, Window window) {
    Window replaced = windows.put(key, window);
    keptBytes += window.bytes().length - (replaced == null ? 0 : replaced.bytes().length);
    Iterator<Window> eldest = windows.values().iterator();
    while (keptBytes > WINDOWS * windowBytes && eldest.hasNext()) {
      Window dropped = eldest.next();
      if (dropped == window) {
        continue;
      }
      keptBytes -= dropped.bytes().length;
      eldest.remove();
    }
  }

  /**
   * Where each member read whole has its entry in a window: its entries' headers, read in a row
   * up to the first that does not end in the window or does not check (the members from there
   * on are looked up).
   */
  private Map<String, Slot> membersOf(byte[] bytes, long start, String file) {
    Map<String, Slot> members = new HashMap<>();
    int at = 0;
    while (bytes.length - at >= EntryHeader.FIXED_SIZE) {
      EntryHeader header;
      try {
        header = EntryHeader.read(bytes, at, bytes.length - at, file, start + at);
      } catch (CorruptArchiveException e) {
        break;
      }
      long length = header.entryLength();
      if (length > bytes.length - at) {
        break;
      }
      if (header.codec() != Codec.RAW || header.originalLength() <= inMemoryLimit) {
        members.put(header.name(), new Slot(start + at, (int) length));
      }
      at += (int) length;
    }
    return members;
  }

  private synchronized RecentOpens opensOf(PartKey key) {
    return opens.computeIfAbsent(key, k -> new RecentOpens());
  }

  private static long partLength(PartKey key) {
    PartInfo info = key.archive().reader.manifest().part(key.part());
    return info == null ? Long.MAX_VALUE : info.length();
  }

  private static String partFile(PartKey key) {
    return key.archive().partPath(key.part()).toString();
  }

  private static <K, V> Map<K, V> lru(int max) {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > max;
      }
    };
  }
}
