package org.hpf.bench.s3;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/** The objects and bytes one way of storing the files left in the bucket. */
public record Stored(long objects, long bytes) {
  /** What each way of {@link Creations} stored, counted on a client of its own. */
  static Map<String, Stored> of(S3Target target) throws IOException {
    Map<String, Stored> stored = new LinkedHashMap<>();
    stored.put(S3Results.ARCHIVE, below(target, Creations.archive(target)));
    stored.put(Creations.PLAIN, below(target, Creations.objects(target)));
    stored.put(Creations.PLAIN_FAST, below(target, Creations.fastObjects(target)));
    return stored;
  }

  private static Stored below(S3Target target, Path dir) throws IOException {
    try (FileSystem fs = FileSystem.newInstance(dir.toUri(), target.conf())) {
      return below(fs, dir);
    }
  }

  private static Stored below(FileSystem fs, Path dir) throws IOException {
    long objects = 0;
    long bytes = 0;
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(dir, true);
    while (files.hasNext()) {
      objects++;
      bytes += files.next().getLen();
    }
    return new Stored(objects, bytes);
  }
}
