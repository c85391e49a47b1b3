package org.hpf.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.MemberNames;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.ReadCountingFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scans through {@code hpf://} that read ahead: a member whose stored bytes are damaged, in
 * the middle of a window, fails its own open, and every other member is served whole, in a
 * few reads of the part; scans on several threads of one instance (an executor's tasks) each
 * get every member's bytes.
 */
class ReadAheadTest {
  private static final int FILES = 300;

  @TempDir java.nio.file.Path tmp;
  private final Configuration conf = new Configuration();

  /**
   * Members stored LZ4 and raw (compressible and not, of about 1.6 KB, so that the index the
   * first opens read is a small share of what they serve), in one part; name to bytes.
   */
  private Map<String, byte[]> createArchive(java.nio.file.Path archive) throws Exception {
    java.nio.file.Path src = tmp.resolve("src");
    Map<String, byte[]> files = SourceTree.write(src, FILES,
        i -> String.format(Locale.ROOT, "logs/log-%04d.txt", i),
        i -> (i % 2 == 0 ? ("line " + i + "\n").repeat(160) : hexDigits(i, 100))
            .getBytes(StandardCharsets.UTF_8));
    ArchiveCreator.create(conf, new Path(archive.toUri()), List.of(new Path(src.toUri())),
        WriterOptions.builder().settings(s -> s.threads(1)).build());
    return files;
  }

  /** {@code words} 64-bit words in hex, drawn from {@code seed}: text LZ4 cannot shrink. */
  private static String hexDigits(long seed, int words) {
    StringBuilder digits = new StringBuilder();
    long x = seed;
    for (int w = 0; w < words; w++) {
      x = x * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L;
      digits.append(Long.toHexString(x));
    }
    return digits.toString();
  }

  /** The members of the archive at {@code root}, in the listing's order. */
  private static List<Path> listing(FileSystem hpf, Path root) throws Exception {
    List<Path> paths = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> it = hpf.listFiles(root, true);
    while (it.hasNext()) {
      paths.add(it.next().getPath());
    }
    return paths;
  }

  @Test
  void scansOnSeveralThreadsOfOneInstanceReadEveryMember() throws Exception {
    java.nio.file.Path archive = tmp.resolve("logs.hpf");
    Map<String, byte[]> files = createArchive(archive);
    Path root = new Path("hpf://file-" + archive + "/");
    try (FileSystem hpf = FileSystem.newInstance(root.toUri(), conf)) {
      List<java.util.concurrent.Future<Integer>> scans = new ArrayList<>();
      java.util.concurrent.ExecutorService threads =
          java.util.concurrent.Executors.newFixedThreadPool(4);
      try {
        for (int t = 0; t < 4; t++) {
          scans.add(threads.submit(() -> {
            int read = 0;
            for (Path path : listing(hpf, root)) {
              String name = path.toUri().getPath().substring(archive.toString().length() + 1);
              try (FSDataInputStream in = hpf.open(path)) {
                assertArrayEquals(files.get(name), in.readAllBytes(), name);
              }
              read++;
            }
            return read;
          }));
        }
        for (java.util.concurrent.Future<Integer> scan : scans) {
          assertEquals(FILES, scan.get());
        }
      } finally {
        threads.shutdownNow();
      }
    }
  }

  @Test
  void aDamagedMemberInAWindowFailsAlone() throws Exception {
    java.nio.file.Path archive = tmp.resolve("logs.hpf");
    Map<String, byte[]> files = createArchive(archive);
    String damaged = "logs/log-0150.txt";
    try (HpfReader reader = HpfReader.open(conf, new Path(archive.toUri()))) {
      IndexRecord record = reader.record(damaged);
      long storedAt = record.offset()
          + EntryHeader.size(MemberNames.utf8(damaged).length) + 3;
      try (RandomAccessFile part = new RandomAccessFile(
          archive.resolve(ArchiveLayout.part(record.part())).toFile(), "rw")) {
        part.seek(storedAt);
        int b = part.read();
        part.seek(storedAt);
        part.write(b ^ 0x10);
      }
    }

    Path root = new Path("hpf://countfs-" + archive + "/");
    ReadCountingFileSystem.reset();
    try (FileSystem hpf = FileSystem.newInstance(root.toUri(),
        ReadCountingFileSystem.conf(false))) {
      List<Path> paths = listing(hpf, root);
      assertEquals(FILES, paths.size());
      int served = 0;
      for (Path path : paths) {
        String name = path.toUri().getPath().substring(archive.toString().length() + 1);
        if (name.equals(damaged)) {
          CorruptArchiveException e = assertThrows(CorruptArchiveException.class, () -> {
            try (FSDataInputStream in = hpf.open(path)) {
              in.readAllBytes();
            }
          });
          assertTrue(e.getMessage().contains(damaged), e.getMessage());
          continue;
        }
        try (FSDataInputStream in = hpf.open(path)) {
          assertArrayEquals(files.get(name), in.readAllBytes(), name);
        }
        served++;
      }
      assertEquals(FILES - 1, served);
      // The damaged member was served from a window, as were most others (the first windows
      // are small: the members served before them pay for them; the listing gave the records,
      // so no index is read). A run that alternates small entries and large ones reads windows
      // that hold the next entry: every member alone when a window had to reach only twice
      // the entry opened past it.
      assertTrue(ReadCountingFileSystem.positionedReads() < FILES / 10,
          ReadCountingFileSystem.positionedReads() + " reads of the part");
    }
  }
}
