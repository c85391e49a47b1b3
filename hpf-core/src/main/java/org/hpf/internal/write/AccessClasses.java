package org.hpf.internal.write;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hpf.CorruptArchiveException;
import org.hpf.LimitExceededException;
import org.hpf.MemberAccess;
import org.hpf.internal.format.Manifest;

/**
 * The access classes of the generation being built: the base generation's dictionary, then the
 * classes its new members introduce, each given the next id (ids never change). A new class is
 * journaled before its id is handed out, so it precedes every journal record that uses it.
 * Thread-safe.
 */
final class AccessClasses {
  /** Journals a class as it is introduced. */
  @FunctionalInterface
  interface Journal {
    void introduce(int id, MemberAccess access) throws IOException;
  }

  private final List<MemberAccess> classes;
  private final Map<MemberAccess, Integer> ids = new HashMap<>();
  private Journal journal = (id, access) -> { };

  AccessClasses(Manifest base) {
    this.classes = new ArrayList<>(base == null ? List.of() : base.accesses());
    for (int i = 0; i < classes.size(); i++) {
      ids.putIfAbsent(classes.get(i), i + 1);
    }
  }

  synchronized void journalTo(Journal value) {
    this.journal = value;
  }

  /** The id of {@code access}, introducing (and journaling) it when new. */
  synchronized int idOf(MemberAccess access) throws IOException {
    Integer known = ids.get(access);
    if (known != null) {
      return known;
    }
    if (classes.size() >= Manifest.MAX_ACCESSES) {
      throw new LimitExceededException("an archive records at most " + Manifest.MAX_ACCESSES
          + " distinct owner, group and mode triples; " + access + " would be one more");
    }
    int id = classes.size() + 1;
    journal.introduce(id, access);
    classes.add(access);
    ids.put(access, id);
    return id;
  }

  /** A class a journal introduced, which must be the next id (recovery). */
  synchronized void define(int id, MemberAccess access, String journalFile)
      throws CorruptArchiveException {
    if (id != classes.size() + 1) {
      throw new CorruptArchiveException(journalFile, 0, "journal introduces access class " + id
          + ", the next is " + (classes.size() + 1));
    }
    classes.add(access);
    ids.putIfAbsent(access, id);
  }

  synchronized List<MemberAccess> all() {
    return List.copyOf(classes);
  }
}
