package org.hpf.internal.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.hpf.DuplicateNameException;
import org.hpf.internal.format.MemberNames;

/**
 * Turns source paths into the sorted list of members, all in memory: for small trees and tests.
 * Writers walk large trees with {@link ArchiveWriter#addTree}, which holds no such list.
 */
public final class SourceCollector {
  private SourceCollector() {}

  public static List<Source> collect(Configuration conf, List<Path> roots) throws IOException {
    List<Source> sources = new ArrayList<>();
    try {
      new SourceWalker(conf, roots).forEachRemaining(sources::add);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    sources.sort(Comparator.comparing(Source::name, MemberNames.ORDER));
    for (int i = 1; i < sources.size(); i++) {
      if (sources.get(i).name().equals(sources.get(i - 1).name())) {
        throw new DuplicateNameException(sources.get(i).name(),
            sources.get(i - 1).path().toString(), sources.get(i).path().toString());
      }
    }
    return sources;
  }
}
