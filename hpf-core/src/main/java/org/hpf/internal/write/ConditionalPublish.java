package org.hpf.internal.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.hpf.ConcurrentCommitException;
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
 * first, and the newest never, so the generation a change built on still being there, as the
 * very commit it read, after the create shows that the created generation had never existed
 * before. A create has no such generation: its manifest is the archive's first, in line where
 * the newest manifest is of the same archive (its id is random per create) and every file it
 * names is there.
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
      warnings.add("generation " + generation + " committed, although creating its manifest "
          + "reported: " + e.getMessage());
      LOG.warn("{}: {}", storage.location(), warnings.get(0));
    }
    String outOfLine;
    try {
      outOfLine = outOfLine(storage, manifest, base);
    } catch (IOException | RuntimeException e) {
      // The manifest exists and may well be the commit: nothing may be removed now.
      throw new UnsettledCommitException(storage.location(), generation, e);
    }
    if (outOfLine != null) {
      try {
        // Nobody builds on it: newer generations exist, or its files are gone.
        storage.delete(name);
      } catch (IOException e) {
        LOG.warn("{}: could not remove {}, a manifest out of line (retention removes it): {}",
            storage.location(), name, e.toString());
      }
      throw conflict(storage, generation, outOfLine, null);
    }
    return warnings;
  }

  /** Why the manifest just created is not the archive's next generation, or null if it is. */
  private static String outOfLine(ArchiveStorage storage, Manifest created, Manifest base)
      throws IOException {
    if (base != null) {
      Manifest now;
      try {
        now = Manifest.read(storage, base.generation());
      } catch (FileNotFoundException e) {
        return "generation " + base.generation() + ", which this change built on, was removed: "
            + "the archive moved on while this writer was paused";
      }
      return base.sameCommit(now) ? null : "generation " + base.generation()
          + ", which this change built on, was committed again by another writer";
    }
    long newest = -1;
    for (String file : storage.list(Manifest.DIR)) {
      newest = Math.max(newest, Manifest.generationOf(file));
    }
    if (newest > created.generation()
        && !Manifest.read(storage, newest).archiveId().equals(created.archiveId())) {
      return "another writer created the archive";
    }
    Set<String> present = Set.copyOf(storage.list(""));
    for (String file : GarbageCollector.filesOf(storage, created)) {
      if (!present.contains(file)) {
        return "its file " + file + " is gone: the archive was removed while this writer was "
            + "paused";
      }
    }
    return null;
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
