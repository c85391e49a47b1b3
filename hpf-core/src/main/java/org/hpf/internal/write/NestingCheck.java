package org.hpf.internal.write;

import com.google.common.collect.Iterators;
import com.google.common.collect.PeekingIterator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.hpf.NameConflictException;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.Manifest.NamesSegment;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.MemberNames;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.format.NameNesting;
import org.hpf.internal.format.NamesFileReader;
import org.hpf.internal.format.NamesMerge;
import org.hpf.internal.io.ArchiveStorage;

/**
 * Passes a commit's new names through (sorted, distinct) and fails with
 * {@link NameConflictException} when one would be a file and a directory at once, among
 * themselves or with the live names of the generation they join. The old names are streamed
 * beside the new ones (one block of each names segment in memory) and read only as far as the
 * new ones need: past the last new name just until no later name can lie below one.
 */
final class NestingCheck implements Iterator<NameEntry>, AutoCloseable {
  private final String archive;
  private final Iterator<NameEntry> added;
  private final NamesMerge merge;
  private final PeekingIterator<NameEntry> old;
  private final NameNesting nesting = new NameNesting();

  /** Thrown from the iterator, whose methods cannot throw checked exceptions. */
  static final class Failure extends RuntimeException {
    final NameConflictException conflict;

    Failure(NameConflictException conflict) {
      super(null, null, false, false);
      this.conflict = conflict;
    }
  }

  /** @param base the generation the names join, or null for a create */
  NestingCheck(ArchiveStorage storage, ArchiveId id, Manifest base, Iterator<NameEntry> added)
      throws IOException {
    this.archive = storage.location();
    this.added = added;
    this.merge = base == null ? null : new NamesMerge(open(storage, id, base), false);
    this.old = merge == null ? Iterators.peekingIterator(Collections.emptyIterator())
        : Iterators.peekingIterator(merge);
  }

  private static List<NamesFileReader> open(ArchiveStorage storage, ArchiveId id, Manifest base)
      throws IOException {
    List<NamesFileReader> readers = new ArrayList<>();
    try {
      for (NamesSegment segment : base.namesSegments()) {
        readers.add(new NamesFileReader(storage.open(segment.file()),
            storage.location(segment.file()), id));
      }
      return readers;
    } catch (IOException | RuntimeException e) {
      for (NamesFileReader reader : readers) {
        try {
          reader.close();
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
  }

  @Override
  public boolean hasNext() {
    if (added.hasNext()) {
      return true;
    }
    // Old names after the last new one may still lie below a new one.
    while (nesting.holdsNewNames() && old.hasNext()) {
      take(old.next().name(), false);
    }
    return false;
  }

  @Override
  public NameEntry next() {
    NameEntry entry = added.next();
    String name = entry.name();
    while (old.hasNext() && MemberNames.compare(old.peek().name(), name) < 0) {
      take(old.next().name(), false);
    }
    if (old.hasNext() && old.peek().name().equals(name)) {
      old.next(); // the new entry replaces it
    }
    take(name, true);
    return entry;
  }

  private void take(String name, boolean isNew) {
    NameNesting.Conflict conflict = nesting.next(name, isNew);
    if (conflict != null) {
      String where = conflict.fileNew() && conflict.belowNew() ? "both are being added"
          : "the archive has '" + (conflict.fileNew() ? conflict.below() : conflict.file()) + "'";
      throw new Failure(new NameConflictException(archive, conflict.file(), conflict.below(),
          where));
    }
  }

  @Override
  public void close() throws IOException {
    if (merge != null) {
      merge.close();
    }
  }
}
