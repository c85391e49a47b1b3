package org.hpf.internal.write;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.Manifest.NamesSegment;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.format.NamesFileReader;
import org.hpf.internal.format.NamesFileWriter;
import org.hpf.internal.format.NamesMerge;
import org.hpf.internal.io.ArchiveStorage;

/**
 * Writes the names segments of one generation and keeps their number logarithmic: after a new
 * segment is added, the newest two merge while the newer holds at least a quarter as many entries
 * as the older, so each name is rewritten O(log n) times over the archive's life.
 */
final class NamesSegments {
  private final ArchiveStorage storage;
  private final ArchiveId id;
  private final long generation;
  private int next;

  NamesSegments(ArchiveStorage storage, ArchiveId id, long generation) {
    this.storage = storage;
    this.id = id;
    this.generation = generation;
  }

  /** Writes sorted entries as a new segment of this generation. */
  NamesSegment write(Iterator<NameEntry> entries, long expected) throws IOException {
    String file = ArchiveLayout.names(generation, next++);
    try (NamesFileWriter writer = new NamesFileWriter(storage.create(file, 0), id)) {
      try {
        while (entries.hasNext()) {
          writer.add(entries.next());
        }
      } catch (java.io.UncheckedIOException e) {
        throw e.getCause();
      }
      if (expected >= 0 && writer.count() != expected) {
        throw new IllegalStateException("names segment got " + writer.count() + " entries, "
            + "expected " + expected);
      }
      long count = writer.count();
      writer.finish();
      return new NamesSegment(file, count);
    }
  }

  /** Applies the merge policy (or merges everything) and returns the resulting segment list. */
  List<NamesSegment> compact(List<NamesSegment> segments, boolean mergeAll) throws IOException {
    List<NamesSegment> result = new ArrayList<>(segments);
    if (mergeAll && result.size() > 1) {
      NamesSegment merged = merge(result, true);
      result.clear();
      result.add(merged);
      return result;
    }
    while (result.size() > 1) {
      NamesSegment newer = result.get(result.size() - 1);
      NamesSegment older = result.get(result.size() - 2);
      if (newer.entries() * 4 < older.entries()) {
        break;
      }
      boolean includesOldest = result.size() == 2;
      NamesSegment merged = merge(List.of(older, newer), includesOldest);
      result.remove(result.size() - 1);
      result.set(result.size() - 1, merged);
    }
    return result;
  }

  /** Merges segments (oldest first); deletions are dropped when the oldest is included. */
  private NamesSegment merge(List<NamesSegment> toMerge, boolean includesOldest)
      throws IOException {
    List<NamesFileReader> readers = new ArrayList<>();
    try {
      for (NamesSegment segment : toMerge) {
        readers.add(new NamesFileReader(storage.open(segment.file()),
            storage.location(segment.file()), id));
      }
    } catch (IOException e) {
      for (NamesFileReader reader : readers) {
        reader.close();
      }
      throw e;
    }
    try (NamesMerge merge = new NamesMerge(readers, !includesOldest)) {
      return write(merge, -1);
    }
  }
}
