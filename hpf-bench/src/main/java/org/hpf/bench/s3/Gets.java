package org.hpf.bench.s3;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.ArchiveReader;
import org.hpf.HpfArchive;
import org.hpf.bench.s3.S3Results.Operation;

/**
 * Gets of single files with one S3A input stream, each checked against its bytes. Cold: a new
 * client and a new reader for each get, as a program started for one file. Warm: a client (and
 * for the archive, a reader) that has already read other files, reading files it has not read.
 *
 * <p>A stream adds its requests to its client's statistics when it closes, and an open reader
 * keeps its streams open; so a warm reader's requests are those of a reader that read the
 * warm-up files and then the measured ones, less those of a reader that read the warm-up files
 * alone.
 */
final class Gets {
  private final S3Target target;
  private final SmallFiles files;
  private final List<Integer> warmUp;
  private final List<Integer> measured;
  private final PrintStream log;
  /** Where the objects are: found once, not in each timed get. */
  private final Path objects;

  Gets(S3Target target, SmallFiles files, List<Integer> sample, PrintStream log)
      throws IOException {
    this.target = target;
    this.objects = Creations.objects(target);
    this.files = files;
    this.warmUp = sample.subList(0, sample.size() / 2);
    this.measured = sample.subList(sample.size() / 2, sample.size());
    this.log = log;
  }

  static String cold(String stream) {
    return "cold get, " + stream + " stream";
  }

  static String warm(String stream) {
    return "warm get, " + stream + " stream";
  }

  List<Operation> measure(String stream) throws IOException {
    Configuration conf = target.conf();
    conf.set("fs.s3a.input.stream.type", stream);
    List<Operation> ops = List.of(coldFromArchive(conf, stream), coldObjects(conf, stream),
        warmFromArchive(conf, stream), warmObjects(conf, stream));
    ops.forEach(op -> log.println(op.summary()));
    return ops;
  }

  private Operation coldFromArchive(Configuration conf, String stream) throws IOException {
    RequestCounts requests = RequestCounts.none();
    List<Double> micros = new ArrayList<>();
    for (int i : measured) {
      Meter meter = Meter.on(target, target.newClient(conf, Creations.archive(target)));
      try (ArchiveReader reader = HpfArchive.openReader(Creations.archive(target), conf)) {
        check(i, reader.get(files.names().get(i)));
      }
      micros.add(meter.millis() * 1e3);
      requests = requests.plus(meter.requests());
    }
    return new Operation(cold(stream), S3Results.ARCHIVE,
        "new client: HpfArchive.openReader, ArchiveReader.get", measured.size(), requests,
        sum(micros) / 1e3, micros);
  }

  private Operation coldObjects(Configuration conf, String stream) throws IOException {
    RequestCounts requests = RequestCounts.none();
    List<Double> micros = new ArrayList<>();
    for (int i : measured) {
      FileSystem fs = target.newClient(conf, objects);
      Meter meter = Meter.on(target, fs);
      check(i, read(fs, i));
      micros.add(meter.millis() * 1e3);
      requests = requests.plus(meter.requests());
    }
    return new Operation(cold(stream), Creations.PLAIN, "new client: FileSystem.open, read",
        measured.size(), requests, sum(micros) / 1e3, micros);
  }

  private Operation warmFromArchive(Configuration conf, String stream) throws IOException {
    Meter warmUpAlone = Meter.on(target, target.newClient(conf, Creations.archive(target)));
    try (ArchiveReader reader = HpfArchive.openReader(Creations.archive(target), conf)) {
      getAll(reader, warmUp, null);
    }
    RequestCounts ofWarmUp = warmUpAlone.requests();
    Meter both = Meter.on(target, target.newClient(conf, Creations.archive(target)));
    List<Double> micros = new ArrayList<>();
    try (ArchiveReader reader = HpfArchive.openReader(Creations.archive(target), conf)) {
      getAll(reader, warmUp, null);
      getAll(reader, measured, micros);
    }
    return new Operation(warm(stream), S3Results.ARCHIVE,
        "open reader, after gets of other members: ArchiveReader.get", measured.size(),
        both.requests().minus(ofWarmUp), sum(micros) / 1e3, micros);
  }

  private void getAll(ArchiveReader reader, List<Integer> which, List<Double> micros)
      throws IOException {
    for (int i : which) {
      long start = System.nanoTime();
      check(i, reader.get(files.names().get(i)));
      if (micros != null) {
        micros.add((System.nanoTime() - start) / 1e3);
      }
    }
  }

  private Operation warmObjects(Configuration conf, String stream) throws IOException {
    FileSystem fs = target.newClient(conf, objects);
    for (int i : warmUp) {
      check(i, read(fs, i));
    }
    Meter meter = Meter.on(target, fs);
    List<Double> micros = new ArrayList<>();
    for (int i : measured) {
      long start = System.nanoTime();
      check(i, read(fs, i));
      micros.add((System.nanoTime() - start) / 1e3);
    }
    return new Operation(warm(stream), Creations.PLAIN,
        "client in use, after gets of other objects: FileSystem.open, read", measured.size(),
        meter.requests(), sum(micros) / 1e3, micros);
  }

  private byte[] read(FileSystem fs, int i) throws IOException {
    try (FSDataInputStream in = fs.open(new Path(objects, files.names().get(i)))) {
      return in.readAllBytes();
    }
  }

  private void check(int i, byte[] got) throws IOException {
    if (!Arrays.equals(files.contents().get(i), got)) {
      throw new IOException("read back other bytes than written: " + files.names().get(i));
    }
  }

  private static double sum(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).sum();
  }
}
