package org.hpf.internal.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.WritableComparator;
import org.hpf.DuplicateNameException;
import org.hpf.MemberAccess;
import org.hpf.NameExistsException;
import org.hpf.internal.access.AccessPlan;
import org.hpf.internal.format.MemberNames;
import org.hpf.internal.write.spill.ExternalSorter;
import org.hpf.internal.write.spill.Scratch;

/**
 * One walk over source roots before a byte is written: counts files and bytes, finds names that
 * two roots both give ({@link DuplicateNameException}) and names the archive already has
 * ({@link NameExistsException}), and shows each source to a visitor (a listing for a job). Holds
 * no list of the sources: duplicate names are found by an external sort.
 */
final class SourceSurvey {
  /** Answers whether a source's name clashes with a member the archive already has. */
  @FunctionalInterface
  interface Members {
    boolean clashes(Source source) throws IOException;
  }

  /** Sees every source once, in walk order. */
  @FunctionalInterface
  interface Visitor {
    void visit(Source source) throws IOException;
  }

  /** Files and bytes below the roots, and the links the walk met. */
  record Totals(long files, long bytes, SourceLinks links) {}

  private SourceSurvey() {}

  /**
   * @param options the writer's: its scratch directory, symlink policy and owner (only that
   *     owner's sources are surveyed)
   * @param members the archive's members, or null when nothing can clash (a create, or a
   *     replacing append)
   * @param visitor sees each source, or null
   * @param access counts who may read each source, or null
   * @param clock takes the survey's time ({@link Phase#SURVEY}) and the walk's ({@link
   *     Phase#LISTING}, {@link Phase#STAT}, {@link Phase#OWNERS})
   */
  static Totals run(Configuration conf, List<Path> roots, WriterOptions options,
      String archive, Members members, Visitor visitor, AccessPlan access, PhaseClock clock)
      throws IOException {
    try (PhaseClock.Section s = clock.in(Phase.SURVEY)) {
      return walk(conf, roots, options, archive, members, visitor, access, clock);
    }
  }

  private static Totals walk(Configuration conf, List<Path> roots, WriterOptions options,
      String archive, Members members, Visitor visitor, AccessPlan access, PhaseClock clock)
      throws IOException {
    SourceLinks links = new SourceLinks();
    SourceWalker walker = new SourceWalker(conf, roots, options.settings().symlinks(), links,
        clock);
    if (access != null) {
      walker.trackingReaders();
    }
    long files = 0;
    long bytes = 0;
    Clashes clashes = new Clashes();
    boolean checkDuplicates = roots.size() > 1;
    java.net.URI archiveUri = new Path(archive).toUri();
    try (ExternalSorter names = checkDuplicates
        ? new ExternalSorter(Scratch.in(options.settings().scratchDirectory()), "sources",
            WritableComparator::compareBytes)
        : null) {
      while (walker.hasNext()) {
        Source source = walker.next();
        if (!options.includes(source)) {
          continue;
        }
        files++;
        bytes += source.length();
        if (checkDuplicates) {
          byte[] name = MemberNames.utf8(source.name());
          names.add(ByteBuffer.allocate(name.length + 5).put(name).put((byte) 0)
              .putInt(walker.rootIndex()).array());
        }
        if (members != null && members.clashes(source)) {
          clashes.add(source.name());
        }
        if (visitor != null) {
          visitor.visit(source);
        }
        if (access != null) {
          // Owners are compared only within one file system: a local user and an HDFS user of
          // the same name need not be one person.
          MemberAccess owned = walker.lastAccess();
          boolean sameUsers = owned != null && sameFileSystem(source.path(), archiveUri);
          access.add(source.path().toString(), sameUsers ? owned.owner() : null,
              owned == null ? null : owned.group(), walker.lastReaders());
        }
      }
      if (checkDuplicates) {
        checkDuplicates(names, roots);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    clashes.throwIfAny(archive);
    return new Totals(files, bytes, links);
  }

  private static boolean sameFileSystem(Path source, java.net.URI a) {
    java.net.URI s = source.toUri();
    return java.util.Objects.equals(a.getScheme(), s.getScheme())
        && java.util.Objects.equals(a.getAuthority(), s.getAuthority());
  }

  /** Names to add that the archive already has: the first five, and how many. */
  static final class Clashes {
    private final List<String> first = new ArrayList<>();
    private long count;

    void add(String name) {
      count++;
      if (first.size() < 5) {
        first.add(name);
      }
    }

    void throwIfAny(String archive) throws NameExistsException {
      if (count > 0) {
        throw new NameExistsException(archive, first, (int) Math.min(count, Integer.MAX_VALUE));
      }
    }
  }

  // Source names spill as the name, a NUL (names have none) and the root's index, compared as
  // bytes: equal names end up adjacent.

  private static void checkDuplicates(ExternalSorter names, List<Path> roots)
      throws IOException {
    try (ExternalSorter.Sorted sorted = names.sort()) {
      byte[] previous = null;
      while (sorted.hasNext()) {
        byte[] entry = sorted.next();
        if (previous != null && previous.length == entry.length
            && Arrays.equals(previous, 0, previous.length - 5, entry, 0, entry.length - 5)) {
          String name = new String(entry, 0, entry.length - 5, StandardCharsets.UTF_8);
          throw new DuplicateNameException(name,
              describe(roots, ByteBuffer.wrap(previous).getInt(previous.length - 4), name),
              describe(roots, ByteBuffer.wrap(entry).getInt(entry.length - 4), name));
        }
        previous = entry;
      }
    }
  }

  private static String describe(List<Path> roots, int root, String name) {
    Path path = roots.get(root);
    return path.getName().equals(name) ? path.toString() : new Path(path, name).toString();
  }
}
