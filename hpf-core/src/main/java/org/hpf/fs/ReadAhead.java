package org.hpf.fs;

import java.io.IOException;
import java.util.HashMap;
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
 * Reads ahead in a part when the members of an archive this file system listed are opened in
 * the order of their entries, as a job's scan opens them (list the archive, then open, read and
 * close each member): the second member in a row (starting where the one before it ended, or
 * shortly after) is read with the entries that follow it, one read of a window of the part, and
 * the members after it are served from that window. Each member served is checked as a get
 * checks it (header, chunk and content checksums) before a byte of it is handed out, so a
 * damaged entry in a window fails the open of its member alone. In a part whose every entry is
 * live, the window's entry headers also say where each member is, so those opens need no index
 * lookup either.
 *
 * <p>A member opened out of order, or in an archive not listed by this file system, is read as
 * a get reads it: random access pays nothing for the read-ahead. At most {@value #WINDOWS}
 * windows are kept per file system (the parts of a few tasks at a time). Thread-safe.
 */
final class ReadAhead {
  /** Windows kept at most. */
  static final int WINDOWS = 4;
  /** How far past the end of the member before it an entry may start and still be in a row. */
  static final long GAP = 64 * 1024;
  /** Parts whose last member read is remembered. */
  private static final int TRACKED_PARTS = 64;

  private final long windowBytes;
  private final long inMemoryLimit;
  private final Map<PartKey, Window> windows = lru(WINDOWS);
  /** Where the last member read of each part ended. */
  private final Map<PartKey, Long> ends = lru(TRACKED_PARTS);

  /**
   * @param windowBytes bytes a window reads (0: no read-ahead)
   * @param inMemoryLimit the largest raw member read whole (larger ones are read in place)
   */
  ReadAhead(long windowBytes, long inMemoryLimit) {
    this.windowBytes = Math.min(Math.max(0, windowBytes), Integer.MAX_VALUE - 64);
    this.inMemoryLimit = inMemoryLimit;
  }

  /** A part of one generation of one archive. */
  private record PartKey(ArchiveCache.OpenArchive archive, int part) {}

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
      for (Map.Entry<PartKey, Window> e : windows.entrySet()) {
        Slot found = e.getKey().archive() == archive ? e.getValue().members().get(member) : null;
        if (found != null) {
          key = e.getKey();
          window = e.getValue();
          slot = found;
          break;
        }
      }
    }
    if (slot == null) {
      return null;
    }
    ended(key, slot.offset() + slot.length());
    EntryReader.Checked checked = EntryReader.decodeAt(window.entry(slot.offset(),
        slot.length()), slot.offset(), partFile(key));
    if (!checked.header().name().equals(member)) {
      throw new CorruptArchiveException(partFile(key), slot.offset(), "entry holds '"
          + checked.header().name() + "', its header was read as '" + member + "'");
    }
    return checked.bytes();
  }

  /**
   * The bytes of {@code member}, whose record a lookup found, read whole: from a window that
   * holds its entry, from a new window when it follows the member read before it in its part,
   * else as a get reads it.
   */
  byte[] read(ArchiveCache.OpenArchive archive, IndexRecord record, String member)
      throws IOException {
    HpfReader reader = archive.reader;
    PartKey key = new PartKey(archive, record.part());
    long offset = record.offset();
    long length = record.entryLength();
    Window window;
    boolean inRow;
    synchronized (this) {
      window = windows.get(key);
      Long end = ends.get(key);
      inRow = end != null && offset >= end && offset - end <= GAP;
    }
    ended(key, offset + length);
    if (window == null || !window.covers(offset, length)) {
      if (windowBytes == 0 || !archive.wasListed() || !inRow || length >= windowBytes) {
        return reader.get(record, member);
      }
      window = load(key, record);
    }
    return reader.decode(record, member, window.entry(offset, length));
  }

  /** Reads the window that starts at {@code record}'s entry, and keeps it. */
  private Window load(PartKey key, IndexRecord record) throws IOException {
    HpfReader reader = key.archive().reader;
    ArchiveInput part = reader.partInput(record); // checks that the entry lies in the part
    PartInfo info = reader.manifest().part(key.part());
    long dataEnd = info.length() - FileFooter.SIZE;
    int size = (int) Math.min(dataEnd - record.offset(), windowBytes);
    byte[] bytes = part.readFully(record.offset(), size);
    Window window = new Window(record.offset(), bytes,
        info.allLive() ? membersOf(bytes, record.offset(), partFile(key)) : Map.of());
    synchronized (this) {
      windows.put(key, window);
    }
    return window;
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

  private synchronized void ended(PartKey key, long end) {
    ends.put(key, end);
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
