package org.hpf.internal.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.hpf.SourceException;
import org.hpf.SymlinkPolicy;

/**
 * The owners of the files below source roots, found in one walk: for each, how many files and
 * bytes they own and which roots hold them, so that an archive per owner walks only those.
 * Holds one entry per owner, not per file.
 */
public final class SourceOwners {
  /**
   * One owner's files.
   *
   * @param roots indexes (in the roots walked) of the roots that hold some of them
   */
  public record Owned(String owner, long files, long bytes, BitSet roots) {
    /** The roots, of {@code all}, that hold this owner's files. */
    public List<Path> rootsOf(List<Path> all) {
      return roots.stream().mapToObj(all::get).toList();
    }
  }

  private SourceOwners() {}

  /**
   * Walks {@code roots} once.
   *
   * @return each owner's files, by owner name
   * @throws SourceException when a source's owner is unknown (a file system without owners)
   */
  public static List<Owned> of(Configuration conf, List<Path> roots, SymlinkPolicy symlinks)
      throws IOException {
    Map<String, long[]> counts = new TreeMap<>();
    Map<String, BitSet> rootsOf = new TreeMap<>();
    SourceWalker walker = new SourceWalker(conf, roots, symlinks, new SourceLinks());
    try {
      while (walker.hasNext()) {
        Source source = walker.next();
        if (source.access() == null) {
          throw new SourceException("the owner of " + source.path() + " is unknown: its file "
              + "system records no owners, so its files cannot be archived per owner");
        }
        long[] count = counts.computeIfAbsent(source.access().owner(), o -> new long[2]);
        count[0]++;
        count[1] += source.length();
        rootsOf.computeIfAbsent(source.access().owner(), o -> new BitSet())
            .set(walker.rootIndex());
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return counts.entrySet().stream().map(e -> new Owned(e.getKey(), e.getValue()[0],
        e.getValue()[1], rootsOf.get(e.getKey()))).toList();
  }
}
