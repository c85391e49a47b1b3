package org.hpf.internal.hdfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.hpf.fs.HpfFileSystem;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's scan through {@code hpf://}: list the archive, then open, read and close each member
 * in the listing's order, as CombineTextInputFormat and Spark's binaryFile do. Counted on the
 * DataNodes: a few dozen reads, where reading member by member made two reads of each.
 */
@Tag("hdfs")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScanReadAheadTest {
  private static final int FILES = 1200;

  @TempDir static File sources;
  private MiniDfs dfs;
  private Map<String, byte[]> files;
  private Path archive;
  private Path root;
  private int parts;

  @BeforeAll
  void createArchive() throws Exception {
    dfs = MiniDfs.shared();
    files = HdfsTesting.writeSources(sources, "scan", FILES, 100, 800, 5);
    archive = new Path(dfs.fileSystem().getUri().toString() + "/scan-read-ahead.hpf");
    ArchiveCreator.create(dfs.configuration(), archive, List.of(HdfsTesting.local(sources)),
        WriterOptions.builder().settings(s -> s.threads(1).pinIndex(false))
            .layout(l -> l.withPartSize(192 << 10)).build());
    root = new Path("hpf://hdfs-" + archive.toUri().getAuthority() + archive.toUri().getPath()
        + "/");
    try (HpfReader reader = HpfReader.open(dfs.fileSystem(), archive, ReaderOptions.defaults())) {
      parts = reader.manifest().parts().size();
    }
    assertTrue(parts >= 2, parts + " parts");
  }

  /** A file system of its own (no reader, no window of another test). */
  private FileSystem newHpf(Configuration conf) throws Exception {
    return FileSystem.newInstance(root.toUri(), conf);
  }

  private List<Path> listing(FileSystem hpf) throws Exception {
    List<Path> paths = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> it = hpf.listFiles(root, true);
    while (it.hasNext()) {
      paths.add(it.next().getPath());
    }
    return paths;
  }

  private byte[] read(FileSystem hpf, Path path) throws Exception {
    try (FSDataInputStream in = hpf.open(path)) {
      return in.readAllBytes();
    }
  }

  private String member(Path path) {
    return path.toUri().getPath().substring(archive.toUri().getPath().length() + 1);
  }

  @Test
  void aScanInListingOrderReadsAFewWindowsPerPart() throws Exception {
    try (FileSystem hpf = newHpf(dfs.configuration());
        HpfReader reader = HpfReader.open(dfs.fileSystem(), archive, ReaderOptions.defaults())) {
      long before = HdfsTesting.settledBlockReads(dfs.cluster());
      List<Path> paths = listing(hpf);
      List<byte[]> read = new ArrayList<>();
      for (Path path : paths) {
        read.add(read(hpf, path));
      }
      long reads = HdfsTesting.settledBlockReads(dfs.cluster()) - before;
      assertEquals(FILES, paths.size());
      for (int i = 0; i < paths.size(); i++) {
        String name = member(paths.get(i));
        assertArrayEquals(reader.get(name), read.get(i), name);
        assertArrayEquals(files.get(name), read.get(i), name);
      }
      // Opening the archive and listing it, then per part its preamble and the first members
      // of a run, read alone; the windows grow as the members served pay for them (by half per
      // window from a few entries: about 30 windows for entries of 450 bytes and parts of
      // 192 KiB), then a window per part. Two reads per member before any read-ahead.
      assertTrue(reads <= 60, reads + " DataNode reads for " + FILES + " members in " + parts
          + " parts");
    }
  }

  @Test
  void opensOutOfOrderReadAsGetsDo() throws Exception {
    Configuration off = new Configuration(dfs.configuration());
    off.setLong(HpfFileSystem.READ_AHEAD_KEY, 0);
    long withReadAhead = outOfOrderReads(dfs.configuration());
    assertEquals(outOfOrderReads(off), withReadAhead);
    assertTrue(withReadAhead <= 6, withReadAhead + " reads: a record and an entry each");
  }

  /** DataNode reads of three opens out of order, after a listing and a first open. */
  private long outOfOrderReads(Configuration conf) throws Exception {
    try (FileSystem hpf = newHpf(conf)) {
      List<Path> paths = listing(hpf);
      read(hpf, paths.get(10)); // loads the bucket's function
      long before = HdfsTesting.settledBlockReads(dfs.cluster());
      read(hpf, paths.get(FILES / 2));
      read(hpf, paths.get(100));
      read(hpf, paths.get(FILES / 2 + 30));
      return HdfsTesting.settledBlockReads(dfs.cluster()) - before;
    }
  }

  @Test
  void noReadAheadWhenTurnedOff() throws Exception {
    Configuration off = new Configuration(dfs.configuration());
    off.setLong(HpfFileSystem.READ_AHEAD_KEY, 0);
    try (FileSystem hpf = newHpf(off)) {
      List<Path> paths = listing(hpf);
      read(hpf, paths.get(0)); // loads the bucket's function, then its records whole (48 KiB)
      long before = HdfsTesting.settledBlockReads(dfs.cluster());
      for (Path path : paths.subList(1, 201)) {
        assertArrayEquals(files.get(member(path)), read(hpf, path), path.toString());
      }
      // One read per open, of its entry: no read ahead, and no record read.
      assertEquals(200, HdfsTesting.settledBlockReads(dfs.cluster()) - before);
    }
  }
}
