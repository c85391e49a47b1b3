package org.hpf.bench.experiments;

import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.Compression;
import org.hpf.bench.systems.HdfsFiles;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;

/**
 * The transfers the experiments time, one client thread each, as Kalmukov et al.'s FileSystem
 * shell does: upload local files (every file closed before the next starts), download every byte
 * of every file (to nowhere: Kalmukov et al. wrote to the client's disk), and the same through an
 * HPF archive.
 */
final class Transfers {
  private static final int BUFFER = 64 << 10;

  private Transfers() {}

  /** Uploads {@code files} into {@code dir} (same names); returns the bytes written. */
  static long upload(FileSystem fs, List<java.nio.file.Path> files, Path dir, short replication,
      long blockSize) throws IOException {
    byte[] buffer = new byte[BUFFER];
    long bytes = 0;
    for (java.nio.file.Path f : files) {
      bytes += HdfsFiles.upload(fs, f, new Path(dir, f.getFileName().toString()), replication,
          blockSize, buffer);
    }
    return bytes;
  }

  /** Reads every byte of every file in {@code dir} (listed first); returns the bytes read. */
  static long download(FileSystem fs, Path dir) throws IOException {
    byte[] buffer = new byte[BUFFER];
    long bytes = 0;
    for (FileStatus status : fs.listStatus(dir)) {
      try (InputStream in = fs.open(status.getPath(), BUFFER)) {
        bytes += drain(in, buffer);
      }
    }
    return bytes;
  }

  /**
   * Packs the files below local {@code root} into an HPF archive with this replication and
   * block size, uncompressed (the sources are random bytes); returns the archive's bytes.
   */
  static long pack(Configuration conf, java.nio.file.Path root, Path archive, short replication,
      long blockSize, int threads) throws IOException {
    WriterOptions.Builder options = WriterOptions.builder()
        .settings(s -> s.compression(Compression.NONE)).layout(l -> l.withReplication(replication)
        .withBlockSize(blockSize));
    if (threads > 0) {
      options.settings(s -> s.threads(threads));
    }
    return ArchiveCreator.create(conf, archive, List.of(new Path(root.toUri())), options.build())
        .storedBytes();
  }

  /** Reads every byte of every member of an HPF archive; returns the bytes read. */
  static long unpack(FileSystem fs, Path archive) throws IOException {
    byte[] buffer = new byte[BUFFER];
    long bytes = 0;
    try (HpfReader reader = HpfReader.open(fs, archive, ReaderOptions.defaults());
        Stream<String> list = reader.list()) {
      Iterator<String> names = list.iterator();
      while (names.hasNext()) {
        try (InputStream in = reader.open(names.next())) {
          bytes += drain(in, buffer);
        }
      }
    }
    return bytes;
  }

  private static long drain(InputStream in, byte[] buffer) throws IOException {
    long bytes = 0;
    int n;
    while ((n = in.read(buffer)) > 0) {
      bytes += n;
    }
    return bytes;
  }
}
