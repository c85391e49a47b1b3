package org.hpf.bench.s3;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.hpf.ArchiveReader;
import org.hpf.HpfArchive;
import org.hpf.MemberIterator;
import org.hpf.bench.s3.S3Results.Operation;

/**
 * Lists every name, each way on a new client: the archive's members (opening the archive
 * included), the objects by one listing of their prefix, and the objects directory by
 * directory, as a tree walk over {@code listStatus} does.
 */
final class Listings {
  static final String OPERATION = "list every name";
  static final String PLAIN_WALK = "one object per file, directory by directory";

  private final S3Target target;
  private final SmallFiles files;
  private final PrintStream log;

  Listings(S3Target target, SmallFiles files, PrintStream log) {
    this.target = target;
    this.files = files;
    this.log = log;
  }

  List<Operation> measure() throws IOException {
    return List.of(archive(), objects(), walk());
  }

  private Operation archive() throws IOException {
    Configuration conf = target.conf();
    Meter meter = Meter.on(target, target.newClient(conf, Creations.archive(target)));
    int names = 0;
    try (ArchiveReader reader = HpfArchive.openReader(Creations.archive(target), conf);
        MemberIterator members = reader.list()) {
      for (; members.hasNext(); members.next()) {
        names++;
      }
    }
    return checked(new Operation(OPERATION, S3Results.ARCHIVE,
        "HpfArchive.openReader, ArchiveReader.list()", names, meter.requests(),
        meter.millis(), List.of()));
  }

  private Operation objects() throws IOException {
    Path dir = Creations.objects(target);
    FileSystem fs = target.newClient(target.conf(), dir);
    Meter meter = Meter.on(target, fs);
    int names = 0;
    RemoteIterator<LocatedFileStatus> objects = fs.listFiles(dir, true);
    for (; objects.hasNext(); objects.next()) {
      names++;
    }
    return checked(new Operation(OPERATION, Creations.PLAIN, "FileSystem.listFiles(dir, true)",
        names, meter.requests(), meter.millis(), List.of()));
  }

  private Operation walk() throws IOException {
    Path dir = Creations.objects(target);
    FileSystem fs = target.newClient(target.conf(), dir);
    Meter meter = Meter.on(target, fs);
    int names = 0;
    Deque<Path> directories = new ArrayDeque<>(List.of(dir));
    while (!directories.isEmpty()) {
      for (FileStatus status : fs.listStatus(directories.pop())) {
        if (status.isDirectory()) {
          directories.push(status.getPath());
        } else {
          names++;
        }
      }
    }
    return checked(new Operation(OPERATION, PLAIN_WALK, "FileSystem.listStatus per directory",
        names, meter.requests(), meter.millis(), List.of()));
  }

  /** Every way must list every file, or its count means nothing. */
  private Operation checked(Operation op) throws IOException {
    if (op.items() != files.count()) {
      throw new IOException(op.way() + " listed " + op.items() + " names of "
          + files.count());
    }
    log.println(op.summary());
    return op;
  }
}
