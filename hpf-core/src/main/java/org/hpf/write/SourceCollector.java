package org.hpf.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.DuplicateNameException;
import org.hpf.SourceException;
import org.hpf.format.MemberNames;

/**
 * Turns source paths into the sorted list of members: a file becomes one member named by its
 * file name, a directory contributes every file below it named by its path relative to the
 * directory. Duplicate and invalid names fail here, before anything is written.
 */
public final class SourceCollector {
  private SourceCollector() {}

  public static List<Source> collect(Configuration conf, List<Path> roots) throws IOException {
    List<Source> sources = new ArrayList<>();
    for (Path root : roots) {
      FileSystem fs = root.getFileSystem(conf);
      if (fs instanceof LocalFileSystem local) {
        fs = local.getRaw();
      }
      FileStatus status;
      try {
        status = fs.getFileStatus(root);
      } catch (FileNotFoundException e) {
        throw new SourceException("source does not exist: " + root);
      }
      if (status.isDirectory()) {
        walk(fs, status.getPath(), "", sources);
      } else {
        add(fs, status, status.getPath().getName(), sources);
      }
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

  private static void walk(FileSystem fs, Path dir, String prefix, List<Source> out)
      throws IOException {
    FileStatus[] children = fs.listStatus(dir);
    Arrays.sort(children, Comparator.comparing(s -> s.getPath().getName()));
    for (FileStatus child : children) {
      String name = prefix + child.getPath().getName();
      if (child.isDirectory()) {
        walk(fs, child.getPath(), name + "/", out);
      } else if (child.isFile()) {
        add(fs, child, name, out);
      }
    }
  }

  private static void add(FileSystem fs, FileStatus status, String name, List<Source> out)
      throws IOException {
    MemberNames.check(name);
    out.add(new Source(name, fs, status.getPath(), status.getLen(), status.getModificationTime()));
  }
}
