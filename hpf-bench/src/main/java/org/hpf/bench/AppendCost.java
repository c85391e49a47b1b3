package org.hpf.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.ChangeResult;
import org.hpf.internal.write.CreateResult;
import org.hpf.internal.write.WriterOptions;

/**
 * Measures what an append of 1,000 files costs as the archive grows: for each archive size,
 * create an archive of that many small files on the local file system, then time appends of
 * 1,000 new files and report the buckets they rewrote. Usage:
 * {@code AppendCost [workdir] [bucketCapacity] [sizes...]}.
 */
public final class AppendCost {
  private AppendCost() {}

  public static void main(String[] args) throws IOException {
    Path work = Path.of(args.length > 0 ? args[0] : "target/append-cost").toAbsolutePath();
    int capacity = args.length > 1 ? Integer.parseInt(args[1]) : 0;
    int[] sizes = args.length > 2
        ? java.util.Arrays.stream(args, 2, args.length).mapToInt(Integer::parseInt).toArray()
        : new int[] {10_000, 100_000, 1_000_000};
    Configuration conf = new Configuration();
    WriterOptions options = WriterOptions.builder().layout(l -> l.withBucketCapacity(capacity))
        .build();
    System.out.println("archive files | create s | buckets | append 1000: ms (median of 3) |"
        + " buckets rewritten | index bytes rewritten");
    for (int size : sizes) {
      deleteTree(work);
      Path base = work.resolve("base");
      writeFiles(base, "base", size);
      Path archive = work.resolve("archive.hpf");
      CreateResult created = ArchiveCreator.create(conf, hadoopPath(archive),
          List.of(hadoopPath(base)), options);
      long[] millis = new long[3];
      ChangeResult last = null;
      try (ArchiveWriter writer = ArchiveWriter.open(conf, hadoopPath(archive), options)) {
        for (int round = 0; round < 3; round++) {
          Path more = work.resolve("more-" + round);
          writeFiles(more, "more-" + round, 1000);
          long start = System.nanoTime();
          last = writer.append(List.of(hadoopPath(more)), false);
          millis[round] = (System.nanoTime() - start) / 1_000_000;
        }
      }
      java.util.Arrays.sort(millis);
      System.out.printf(Locale.ROOT, "%d | %.1f | %d | %d | %d | %d%n", size,
          created.totalMillis() / 1e3, created.buckets(), millis[1], last.bucketsRewritten(),
          last.indexBytesWritten());
    }
    deleteTree(work);
  }

  private static void writeFiles(Path root, String prefix, int count) throws IOException {
    for (int i = 0; i < count; i++) {
      Path file = root.resolve(String.format(Locale.ROOT, "d%03d/%s-%07d.log", i % 997, prefix,
          i));
      Files.createDirectories(file.getParent());
      Files.write(file, ("line " + i + " of " + prefix + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }

  private static org.apache.hadoop.fs.Path hadoopPath(Path path) {
    return new org.apache.hadoop.fs.Path(path.toUri());
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (var walk = Files.walk(root)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
