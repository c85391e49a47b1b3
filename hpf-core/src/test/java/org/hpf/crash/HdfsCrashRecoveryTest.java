package org.hpf.crash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.read.ArchiveVerifier;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.Recovery;
import org.hpf.internal.write.Source;
import org.hpf.internal.write.SourceCollector;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sample of kill points of an append on the MiniDFSCluster. The dying writer has its own HDFS
 * client, whose streams (and leases) are abandoned at the crash, as when a process dies;
 * recovery, from another client, must recover those leases before it can read the files.
 */
@Tag("hdfs")
class HdfsCrashRecoveryTest {
  @TempDir Path tmp;

  @Test
  void sampledKillPointsOfAnAppend() throws Exception {
    MiniDfs dfs = MiniDfs.shared();
    Configuration conf = dfs.configuration();
    FileSystem fs = dfs.fileSystem();
    WriterOptions options = WriterOptions.builder().settings(s -> s.threads(2))
        .layout(l -> l.withPartSize(32 * 1024).withBucketCapacity(16)).journalBatch(6, 16 * 1024)
        .build();
    Map<String, byte[]> expected = new HashMap<>();
    List<Source> base = sources(conf, "base", 40, 1, expected);
    Map<String, byte[]> committedFiles = new HashMap<>(expected);
    List<Source> added = sources(conf, "more", 30, 2, expected);
    org.apache.hadoop.fs.Path template = new org.apache.hadoop.fs.Path("/crash/template.hpf");
    ArchiveCreator.create(new HadoopStorage(fs, template, (short) 0), base, options);

    org.apache.hadoop.fs.Path counted = new org.apache.hadoop.fs.Path("/crash/count.hpf");
    FileUtil.copy(fs, template, fs, counted, false, conf);
    CrashingStorage counter = new CrashingStorage(new HadoopStorage(fs, counted, (short) 0), 0);
    try (ArchiveWriter writer = ArchiveWriter.open(conf, counter, options)) {
      writer.appendSources(added, false);
    }
    int total = counter.operations();
    int checked = 0;
    for (int k = 1; k <= total; k += Math.max(1, total / 8)) {
      org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path("/crash/a-" + k + ".hpf");
      FileUtil.copy(fs, template, fs, archive, false, conf);
      FileSystem dying = FileSystem.newInstance(dfs.cluster().getURI(), conf);
      CrashingStorage storage = new CrashingStorage(new HadoopStorage(dying, archive, (short) 0),
          k);
      try (ArchiveWriter writer = ArchiveWriter.open(conf, storage, options)) {
        writer.appendSources(added, false);
      } catch (CrashingStorage.Crash | IOException | RuntimeException e) {
        assertTrue(storage.crashed() || !(e instanceof CrashingStorage.Crash), "k=" + k);
      }
      boolean commitPointPassed = fs.exists(new org.apache.hadoop.fs.Path(archive,
          Manifest.fileName(2)));
      ArchiveWriter.recover(conf, archive, WriterOptions.builder().settings(s -> s.breakLock(true))
          .build());
      try (HpfReader reader = HpfReader.open(conf, archive)) {
        for (Map.Entry<String, byte[]> file : committedFiles.entrySet()) {
          assertArrayEquals(file.getValue(), reader.get(file.getKey()), "k=" + k);
        }
        List<String> listed;
        try (var names = reader.list()) {
          listed = names.toList();
        }
        for (String name : listed) {
          assertArrayEquals(expected.get(name), reader.get(name), "k=" + k + ": " + name);
        }
        if (commitPointPassed) {
          assertEquals(expected.size(), listed.size(), "k=" + k + ": committed but incomplete");
        }
      }
      ArchiveVerifier.Report report = ArchiveVerifier.verify(new HadoopStorage(fs, archive,
          (short) 0), ReaderOptions.defaults(), bytes -> {});
      assertTrue(report.ok(), "k=" + k + ": " + report.problems());
      checked++;
      // The dying client is never closed: closing it would complete its files, which a dead
      // process does not do. Its lease renewer stops with the JVM.
    }
    System.out.println("hdfs append: " + checked + " kill points of " + total + " checked");
    assertTrue(checked >= 6);
  }

  /**
   * A create whose writer died (its client abandoned, the lock and a part still open under its
   * leases) before its journal held a record: recovery from another client removes what it left,
   * and the path is free for the create again. Removing empty directories leaves one that holds
   * a file, with the file.
   */
  @Test
  void aCreateThatDiedBeforeItsJournalHeldARecordIsRemoved() throws Exception {
    MiniDfs dfs = MiniDfs.shared();
    Configuration conf = dfs.configuration();
    FileSystem fs = dfs.fileSystem();
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path("/crash/died-creating.hpf");
    FileSystem dying = FileSystem.newInstance(dfs.cluster().getURI(), conf);
    ArchiveWriter.create(conf, new HadoopStorage(dying, archive, (short) 0),
        WriterOptions.builder().build());
    org.apache.hadoop.fs.FSDataOutputStream part = dying.create(
        new org.apache.hadoop.fs.Path(archive, "part-000000"));
    part.write(new byte[100]);
    part.hflush();

    Recovery.Report report = ArchiveWriter.recover(conf, archive,
        WriterOptions.builder().settings(s -> s.breakLock(true)).build());
    assertTrue(report.removedCreate(), report.describe());
    assertFalse(fs.exists(archive), "the archive's directory");
    ArchiveCreator.create(new HadoopStorage(fs, archive, (short) 0), List.of(),
        WriterOptions.builder().build());
    assertTrue(fs.exists(new org.apache.hadoop.fs.Path(archive, Manifest.fileName(1))));

    org.apache.hadoop.fs.Path holding = new org.apache.hadoop.fs.Path("/crash/holding");
    fs.create(new org.apache.hadoop.fs.Path(holding, "sub/file")).close();
    new HadoopStorage(fs, holding, (short) 0).deleteEmptyDirectories("sub");
    assertTrue(fs.exists(new org.apache.hadoop.fs.Path(holding, "sub/file")));
    // The dying client is never closed, as above.
  }

  private List<Source> sources(Configuration conf, String prefix, int count, long seed,
      Map<String, byte[]> into) throws IOException {
    Random random = new Random(seed);
    Path root = tmp.resolve(prefix);
    for (int i = 0; i < count; i++) {
      byte[] bytes = new byte[random.nextInt(4000)];
      random.nextBytes(bytes);
      Path file = root.resolve(prefix + "/f" + i);
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
      into.put(prefix + "/f" + i, bytes);
    }
    return SourceCollector.collect(conf, List.of(new org.apache.hadoop.fs.Path(root.toUri())));
  }
}
