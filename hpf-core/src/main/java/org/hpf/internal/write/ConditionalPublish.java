package org.hpf.internal.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.hpf.ConcurrentCommitException;
import org.hpf.LockLostException;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.io.ArchiveStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit point on a store without an atomic rename but with a conditional create (an object
 * store): the manifest is created under its generation's name, which the store refuses where an
 * object of that name exists, so of two writers building the same generation exactly one
 * commits.
 *
 * <p>Retention deletes old manifests, so a name free now may have been taken before: a writer
 * paused for long enough could otherwise create a generation the archive has moved past, and
 * report as committed a change that no reader will see. Manifests are only ever deleted oldest
 * first, and the newest never, and each records the commit id of the generation it was built on.
 * So after its create a writer looks at what is there:
 * <ul>
 *   <li>the generation it built on, still there as the very commit it read: the created
 *       generation had never existed before, and is the archive's next;
 *   <li>the generation after the created one, built on this very commit (its base commit id, or
 *       before format 6 a file of this writer that it names): another writer went on from this
 *       commit, which is in line, whatever retention removed since;
 *   <li>that generation built on another commit, the base replaced by another commit, or the
 *       created manifest still there while the generation after it was removed: the archive had
 *       moved past this generation before the create, which is out of line, and is withdrawn;
 *   <li>anything else (this very manifest retired already, say) cannot tell: the change is
 *       unsettled, and nothing is removed.
 * </ul>
 * A create has no such generation: its manifest is the archive's first, in line where the newest
 * manifest is of the same archive (its id is random per create) and every file it names is there.
 */
final class ConditionalPublish {
  private static final Logger LOG = LoggerFactory.getLogger(ConditionalPublish.class);

  private ConditionalPublish() {}

  /**
   * Publishes {@code manifest}, built on {@code base} (null for a create). Returns normally once
   * it is committed and in line, with warnings where its create reported a failure that did not
   * prevent it.
   *
   * @throws ConcurrentCommitException where another writer took the generation, or the archive
   *     had moved past it; nothing of the change is then committed
   * @throws UnsettledCommitException where the manifest was created but whether it is in line
   *     could not be checked
   */
  static List<String> run(ArchiveStorage storage, Manifest manifest, Manifest base)
      throws IOException {
    long generation = manifest.generation();
    String name = Manifest.fileName(generation);
    byte[] bytes = manifest.toBytes();
    List<String> warnings = new ArrayList<>();
    try {
      GenerationCommit.writeSmallFile(storage, name, bytes);
    } catch (FileAlreadyExistsException | ConcurrentCommitException e) {
      throw conflict(storage, generation, "its manifest exists", e);
    } catch (IOException e) {
      // The store may have taken the object although its answer was lost.
      if (!ManifestRename.holds(storage, name, bytes, generation, e)) {
        throw e;
      }
      Warnings.add(warnings, storage.location(), "generation " + generation + " committed,"
          + " although creating its manifest reported: " + e.getMessage());
    }
    Line line;
    try {
      line = base == null ? createdInLine(storage, manifest) : inLine(storage, manifest, base);
    } catch (IOException | RuntimeException e) {
      // The manifest exists and may well be the commit: nothing may be removed now.
      throw new UnsettledCommitException(storage.location(), generation, e);
    }
    if (line.unknown()) {
      throw new UnsettledCommitException(storage.location(), generation, line.reason());
    }
    if (line.reason() != null) {
      try {
        // Nobody builds on it: newer generations exist, or its files are gone.
        storage.delete(name);
      } catch (IOException e) {
        LOG.warn("{}: could not remove {}, a manifest out of line (retention removes it): {}",
            storage.location(), name, e.toString());
      }
      throw conflict(storage, generation, line.reason(), null);
    }
    return warnings;
  }

  /**
   * Where a created manifest stands: in line (no reason), out of line (why), or unknown (why it
   * cannot be told).
   */
  private record Line(String reason, boolean unknown) {
    static final Line IN = new Line(null, false);

    static Line out(String reason) {
      return new Line(reason, false);
    }

    static Line unknown(String reason) {
      return new Line(reason, true);
    }
  }

  /** Where {@code created}, built on {@code base}, stands (see the class comment). */
  private static Line inLine(ArchiveStorage storage, Manifest created, Manifest base)
      throws IOException {
    long generation = created.generation();
    Manifest now = readIfThere(storage, base.generation());
    if (base.sameCommit(now)) {
      return Line.IN;
    }
    Manifest next = readIfThere(storage, generation + 1);
    if (next != null && (next.baseCommitId() == created.commitId()
        || next.baseCommitId() == 0 && namesAFileCreatedHere(storage, next))) {
      return Line.IN;
    }
    if (now != null) {
      return Line.out("generation " + base.generation() + ", which this change built on, was "
          + "committed again by another writer");
    }
    String removed = "generation " + base.generation() + ", which this change built on, was "
        + "removed meanwhile";
    if (next != null && next.baseCommitId() != 0) {
      return Line.out(removed + ", and generation " + (generation + 1) + " was built on "
          + "another commit of generation " + generation + ": the archive had moved past it "
          + "before this writer created it");
    }
    if (next != null) {
      return Line.unknown(removed + ", and generation " + (generation + 1) + " (written by an "
          + "earlier version) names none of this change's files");
    }
    boolean later = false;
    for (String file : storage.list(Manifest.DIR)) {
      later |= Manifest.generationOf(file) > generation + 1;
    }
    if (later && created.sameCommit(readIfThere(storage, generation))) {
      // Retention removes manifests oldest first: one that outlived the generation after it was
      // created after that generation had been retired.
      return Line.out(removed + " while this writer was paused, and the archive had moved past "
          + "generation " + generation + " before it was created");
    }
    return Line.unknown(removed + ", and no later generation shows whether the archive went "
        + "on from this one");
  }

  /**
   * The manifest of {@code generation}, or null where there is none. A writer whose lock was
   * broken has its failures explained as the lock's loss, with the file system's error attached:
   * a manifest that is not there is still an answer here, which decides the commit's outcome.
   */
  private static Manifest readIfThere(ArchiveStorage storage, long generation)
      throws IOException {
    try {
      return Manifest.read(storage, generation);
    } catch (FileNotFoundException e) {
      return null;
    } catch (LockLostException e) {
      for (Throwable cause : e.getSuppressed()) {
        if (cause instanceof FileNotFoundException) {
          return null;
        }
      }
      throw e;
    }
  }

  /**
   * True when {@code manifest} names a file whose create succeeded through this writer: only a
   * generation built on this writer's commit can name one (a kept generation's files are never
   * deleted, so this writer could not have created one of their names). For a generation
   * written before its manifest recorded its base.
   */
  private static boolean namesAFileCreatedHere(ArchiveStorage storage, Manifest manifest)
      throws IOException {
    for (String file : GarbageCollector.filesOf(storage, manifest)) {
      if (storage.createdHere(file)) {
        return true;
      }
    }
    return false;
  }

  /** Where the manifest of a create stands: in line, or out of line where the path moved on. */
  private static Line createdInLine(ArchiveStorage storage, Manifest created)
      throws IOException {
    long newest = -1;
    for (String file : storage.list(Manifest.DIR)) {
      newest = Math.max(newest, Manifest.generationOf(file));
    }
    if (newest > created.generation()
        && !Manifest.read(storage, newest).archiveId().equals(created.archiveId())) {
      return Line.out("another writer created the archive");
    }
    Set<String> present = Set.copyOf(storage.list(""));
    for (String file : GarbageCollector.filesOf(storage, created)) {
      if (!present.contains(file)) {
        return Line.out("its file " + file + " is gone: the archive was removed while this "
            + "writer was paused");
      }
    }
    return Line.IN;
  }

  private static ConcurrentCommitException conflict(ArchiveStorage storage, long generation,
      String detail, Throwable cause) {
    ConcurrentCommitException conflict =
        new ConcurrentCommitException(storage.location(), generation, detail);
    if (cause != null) {
      conflict.initCause(cause);
    }
    return conflict;
  }
}
