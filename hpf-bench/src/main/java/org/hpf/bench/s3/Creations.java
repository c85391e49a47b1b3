package org.hpf.bench.s3;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.ArchiveWriter;
import org.hpf.HpfArchive;
import org.hpf.bench.s3.S3Results.Operation;

/**
 * Stores the small files three ways, each on a new client: as one hpf archive written straight
 * to the bucket, and as one object per file, with S3A's checks before each create and without
 * them ({@code fs.s3a.create.performance}, a bare PUT as S3's own tools send).
 */
final class Creations {
  static final String OPERATION = "create";
  static final String PLAIN = "one object per file";
  static final String PLAIN_FAST = "one object per file, create performance";

  private final S3Target target;
  private final SmallFiles files;
  private final PrintStream log;

  Creations(S3Target target, SmallFiles files, PrintStream log) {
    this.target = target;
    this.files = files;
    this.log = log;
  }

  static Path archive(S3Target target) {
    return new Path(target.root(), "archive.hpf");
  }

  static Path objects(S3Target target) throws IOException {
    return target.directory("objects");
  }

  static Path fastObjects(S3Target target) throws IOException {
    return target.directory("objects-fast");
  }

  List<Operation> measure() throws IOException {
    return List.of(archive(), objects(PLAIN, objects(target), false),
        objects(PLAIN_FAST, fastObjects(target), true));
  }

  private Operation archive() throws IOException {
    Configuration conf = target.conf();
    Meter meter = Meter.on(target, target.newClient(conf, archive(target)));
    try (ArchiveWriter writer = HpfArchive.create(archive(target), conf)) {
      for (int i = 0; i < files.count(); i++) {
        writer.add(files.names().get(i), files.contents().get(i));
      }
      writer.commit();
    }
    return logged(new Operation(OPERATION, S3Results.ARCHIVE,
        "HpfArchive.create, ArchiveWriter.add per file, commit", files.count(),
        meter.requests(), meter.millis(), List.of()));
  }

  private Operation objects(String way, Path dir, boolean performance) throws IOException {
    FileSystem fs = target.newClient(target.conf(), dir);
    Meter meter = Meter.on(target, fs);
    for (int i = 0; i < files.count(); i++) {
      Path path = new Path(dir, files.names().get(i));
      try (OutputStream out = create(fs, path, performance)) {
        out.write(files.contents().get(i));
      }
    }
    return logged(new Operation(OPERATION, way, performance
        ? "FileSystem.createFile per file, option fs.s3a.create.performance"
        : "FileSystem.create per file", files.count(), meter.requests(),
        meter.millis(), List.of()));
  }

  private static OutputStream create(FileSystem fs, Path path, boolean performance)
      throws IOException {
    if (!performance) {
      return fs.create(path, true);
    }
    // FileSystem.createFile's builder is a raw type: build() returns an Object.
    return (OutputStream) fs.createFile(path).overwrite(true)
        .opt("fs.s3a.create.performance", true).build();
  }

  private Operation logged(Operation op) {
    log.println(op.summary());
    return op;
  }
}
