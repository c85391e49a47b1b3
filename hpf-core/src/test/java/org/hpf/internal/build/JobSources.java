package org.hpf.internal.build;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.format.EntryLocation;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.read.HpfReader;

/** Source trees for the archive job's tests, on any file system, with their expected bytes. */
final class JobSources {
  /** Threads that write source files. */
  private static final int WRITERS = 8;

  private JobSources() {}

  /**
   * Writes {@code count} files below {@code root} (nested directories, sizes from 0 to a few
   * KiB, every tenth compressible, one of 200 KiB); returns member name to bytes. The files are
   * written by a few threads at once: on HDFS each small file waits for its pipeline and the
   * NameNode, and a thousand of them one by one took half a minute.
   */
  static Map<String, byte[]> write(FileSystem fs, Path root, String prefix, int count,
      long seed) throws IOException {
    Random random = new Random(seed);
    Map<String, byte[]> files = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      byte[] bytes;
      if (i == count / 2) {
        bytes = new byte[200 << 10];
        random.nextBytes(bytes);
      } else if (i % 10 == 0) {
        bytes = ("line " + i + "\n").repeat(1 + random.nextInt(200))
            .getBytes(StandardCharsets.UTF_8);
      } else {
        bytes = new byte[random.nextInt(4096)];
        random.nextBytes(bytes);
      }
      files.put(prefix + "/d" + (i % 5) + "/s" + (i % 3) + "/f-" + i + ".bin", bytes);
    }
    ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<?>> written = new ArrayList<>();
      for (Map.Entry<String, byte[]> file : files.entrySet()) {
        written.add(writers.submit(() -> {
          try (FSDataOutputStream out = fs.create(new Path(root, file.getKey()), false)) {
            out.write(file.getValue());
          }
          return null;
        }));
      }
      for (Future<?> file : written) {
        file.get();
      }
    } catch (ExecutionException e) {
      throw new IOException("cannot write a source file", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while writing source files");
    } finally {
      writers.shutdownNow();
    }
    return files;
  }

  /** The archive holds exactly {@code expected}, byte for byte. */
  static void assertHolds(Configuration conf, Path archive, Map<String, byte[]> expected)
      throws IOException {
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      List<String> names;
      try (var listed = reader.list()) {
        names = listed.toList();
      }
      assertEquals(new ArrayList<>(expected.keySet()), names);
      for (Map.Entry<String, byte[]> e : expected.entrySet()) {
        assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
      }
      assertEquals(expected.size(), reader.manifest().fileCount());
    }
  }

  /** Each entry's name, deletion, length, time and access, its access class resolved. */
  private static List<List<Object>> described(HpfReader reader, List<NameEntry> entries)
      throws IOException {
    List<List<Object>> described = new java.util.ArrayList<>();
    for (NameEntry e : entries) {
      described.add(java.util.Arrays.asList(e.name(), e.deleted(), e.length(), e.mtimeMillis(),
          reader.manifest().access(e.access(), e.name())));
    }
    return described;
  }

  /** Two archives hold the same members with the same bytes, lengths, times and access. */
  static void assertSameMembers(Configuration conf, Path expected, Path actual)
      throws IOException {
    try (HpfReader want = HpfReader.open(conf, expected);
        HpfReader got = HpfReader.open(conf, actual)) {
      assertEquals(want.manifest().fileCount(), got.manifest().fileCount());
      assertEquals(want.manifest().originalBytes(), got.manifest().originalBytes());
      assertEquals(want.manifest().storedBytes(), got.manifest().storedBytes());
      List<NameEntry> entries;
      List<NameEntry> gotEntries;
      try (var names = want.listEntries(); var gotNames = got.listEntries()) {
        entries = names.toList();
        gotEntries = gotNames.toList();
      }
      // Names, lengths, times and owners, groups and modes agree; where each entry lies is each
      // archive's own, as are the ids of access classes (numbered in the order a writer met
      // them, which a job's parallel tasks do not fix), and each names entry says where its
      // archive's index says.
      assertEquals(described(want, entries), described(got, gotEntries));
      for (NameEntry entry : gotEntries) {
        assertEquals(EntryLocation.of(got.record(entry.name())), entry.location(),
            entry.name());
      }
      for (NameEntry entry : entries) {
        assertArrayEquals(want.get(entry.name()), got.get(entry.name()), entry.name());
      }
    }
  }

  /** The names of the archive directory's entries. */
  static List<String> entries(FileSystem fs, Path archive) throws IOException {
    List<String> names = new ArrayList<>();
    for (var status : fs.listStatus(archive)) {
      names.add(status.getPath().getName());
    }
    return names;
  }
}
