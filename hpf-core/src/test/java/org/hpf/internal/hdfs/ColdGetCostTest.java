package org.hpf.internal.hdfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.hpf.fs.HpfFileSystem;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a new client's first get costs, counted on the NameNode (client-protocol calls by method)
 * and the DataNodes (block reads): the numbers docs/HDFS.md states. A change to the read path
 * that adds or saves a round trip changes them.
 */
@Tag("hdfs")
class ColdGetCostTest {
  @TempDir File sources;

  @Test
  void aColdGetMakesFiveNameNodeCallsAndSixDataNodeReadsMoreThanAPlainRead() throws Exception {
    MiniDfs dfs = MiniDfs.shared();
    MiniDFSCluster cluster = dfs.cluster();
    Map<String, byte[]> files = HdfsTesting.writeSources(sources, "cold", 300, 100, 5_000, 3);
    Path archive = new Path(dfs.fileSystem().getUri().toString() + "/cold-get.hpf");
    Configuration conf = dfs.configuration();
    ArchiveCreator.create(conf, archive, List.of(HdfsTesting.local(sources)),
        WriterOptions.builder().settings(s -> s.threads(1)).build());
    String name = files.keySet().iterator().next();
    Path plain = new Path(dfs.fileSystem().getUri().toString() + "/cold-get-plain");
    try (var out = dfs.fileSystem().create(plain)) {
      out.write(files.get(name));
    }

    // The control: a new client opens and reads a plain file. Its first connection to a
    // DataNode asks the NameNode whether data transfer is encrypted (getServerDefaults).
    Cost control = cost(cluster, () -> {
      try (FileSystem client = newClient(conf);
          var in = client.open(plain)) {
        assertArrayEquals(files.get(name), in.readAllBytes());
      }
    });
    assertEquals(new Cost(Map.of("OverallGetBlockLocationsNumOps", 1L,
        "OverallGetServerDefaultsNumOps", 1L), 1), control);

    // hpf: the listing of _manifests/, then an open (block locations) of the manifest (which
    // carries the directory), the bucket's index file and the part; the manifest, the bucket's
    // function, its record's group, the part's preamble and the member's entry are read.
    // Nothing else: a reader does not ask for the default replication (getServerDefaults).
    assertEquals(new Cost(Map.of("OverallGetListingNumOps", 1L,
        "OverallGetBlockLocationsNumOps", 3L, "OverallGetServerDefaultsNumOps", 1L), 5),
        coldGet(conf, archive, name, files.get(name)));
  }

  /**
   * Of an archive of a few parts, a new client's first get asks for the block locations of every
   * part while it reads the index (the one it needs is then open when its record is known), but
   * reads nothing of the parts it does not need: the same five DataNode reads.
   */
  @Test
  void aColdGetOpensAFewPartsAheadAndReadsOnlyItsOwn() throws Exception {
    MiniDfs dfs = MiniDfs.shared();
    Map<String, byte[]> files = HdfsTesting.writeSources(sources, "ahead", 300, 100, 5_000, 5);
    Path archive = new Path(dfs.fileSystem().getUri().toString() + "/cold-get-ahead.hpf");
    Configuration conf = dfs.configuration();
    ArchiveCreator.create(conf, archive, List.of(HdfsTesting.local(sources)),
        WriterOptions.builder().settings(s -> s.threads(2)).build());
    try (HpfReader reader = HpfReader.open(dfs.fileSystem(), archive, ReaderOptions.defaults())) {
      assertEquals(2, reader.manifest().parts().size());
    }
    String name = files.keySet().iterator().next();
    assertEquals(new Cost(Map.of("OverallGetListingNumOps", 1L,
        "OverallGetBlockLocationsNumOps", 4L, "OverallGetServerDefaultsNumOps", 1L), 5),
        coldGet(conf, archive, name, files.get(name)));
  }

  /**
   * A warm open through hpf:// reads the member's entry and nothing else once the bucket's
   * records are held (the default, for a bucket this small from its first lookup on), and its
   * record's group and its entry where none are held.
   */
  @Test
  void aWarmOpenThroughHpfReadsTheEntryAndTheRecordOnlyWhereNoneAreHeld() throws Exception {
    MiniDfs dfs = MiniDfs.shared();
    Map<String, byte[]> files = HdfsTesting.writeSources(sources, "warm", 60, 100, 2_000, 4);
    Path archive = new Path(dfs.fileSystem().getUri().toString() + "/warm-open.hpf");
    Configuration conf = dfs.configuration();
    ArchiveCreator.create(conf, archive, List.of(HdfsTesting.local(sources)),
        WriterOptions.builder().settings(s -> s.threads(1).pinIndex(false)).build());
    Path root = new Path("hpf://hdfs-" + archive.toUri().getAuthority() + "/warm-open.hpf/");
    List<String> names = List.copyOf(files.keySet());
    // Members opened one after another in part order: no window, so that each open's own
    // reads are what is counted.
    conf = new Configuration(conf);
    conf.setLong(HpfFileSystem.READ_AHEAD_KEY, 0);
    Configuration noneHeld = new Configuration(conf);
    noneHeld.setLong(HpfFileSystem.INDEX_MEMORY_KEY, 0);
    assertEquals(names.size() - 1, warmOpenReads(conf, root, files, names),
        "one read of the entry per member");
    assertEquals(2L * (names.size() - 1), warmOpenReads(noneHeld, root, files, names),
        "one read of the record's group and one of the entry per member");
  }

  /** DataNode reads of opening and reading every member but the first, which came before. */
  private static long warmOpenReads(Configuration conf, Path root, Map<String, byte[]> files,
      List<String> names) throws Exception {
    try (FileSystem hpf = FileSystem.newInstance(root.toUri(), conf)) {
      try (var in = hpf.open(new Path(root, names.get(0)))) {
        in.readAllBytes(); // opens the archive and reads the bucket's function
      }
      return cost(MiniDfs.shared().cluster(), () -> {
        for (String name : names.subList(1, names.size())) {
          try (var in = hpf.open(new Path(root, name))) {
            assertArrayEquals(files.get(name), in.readAllBytes(), name);
          }
        }
      }).blockReads();
    }
  }

  /** What a new client's open of the archive and get of one member cost. */
  private static Cost coldGet(Configuration conf, Path archive, String name, byte[] expected)
      throws Exception {
    return cost(MiniDfs.shared().cluster(), () -> {
      try (FileSystem client = newClient(conf);
          HpfReader reader = HpfReader.open(client, archive, ReaderOptions.defaults())) {
        assertArrayEquals(expected, reader.get(name));
      }
    });
  }

  /**
   * A client as a new process has it: its own client context, so no connection to a DataNode
   * is reused from another client of this JVM (the peer cache is per context).
   */
  private static FileSystem newClient(Configuration conf) throws Exception {
    Configuration own = new Configuration(conf);
    own.set("dfs.client.context", "cold-get-" + java.util.UUID.randomUUID());
    return FileSystem.newInstance(FileSystem.getDefaultUri(conf), own);
  }

  /** NameNode calls by method and DataNode block reads of one piece of work. */
  private record Cost(Map<String, Long> calls, long blockReads) {}

  @FunctionalInterface
  private interface Work {
    void run() throws Exception;
  }

  private static Cost cost(MiniDFSCluster cluster, Work work) throws Exception {
    HdfsTesting.clientRpcs(cluster); // every earlier call is counted
    Map<String, Long> before = HdfsTesting.clientRpcsByMethod(cluster);
    long readsBefore = HdfsTesting.blockReads(cluster);
    work.run();
    HdfsTesting.clientRpcs(cluster);
    return new Cost(delta(before, HdfsTesting.clientRpcsByMethod(cluster)),
        HdfsTesting.blockReads(cluster) - readsBefore);
  }

  /** Calls whose count grew, without lease renewals (other clients of the shared cluster). */
  private static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> grown = new TreeMap<>();
    after.forEach((method, count) -> {
      long d = count - before.getOrDefault(method, 0L);
      if (d > 0 && !method.equals("OverallRenewLeaseNumOps")) {
        grown.put(method, d);
      }
    });
    return grown;
  }
}
