package org.hpf.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.hpf.ArchiveReader;
import org.hpf.ArchiveWriter;
import org.hpf.HpfArchive;
import org.hpf.UnsupportedStoreException;
import org.hpf.fs.HpfFileSystem;
import org.hpf.internal.io.StorageProfile;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.SourceRemoval;
import org.hpf.mapreduce.ArchiveJob;
import org.hpf.minicluster.S3Server;
import org.hpf.testing.BucketKeys;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * An archive on s3a://, against a real S3-protocol server: written on the local disk and copied
 * there object by object, it reads back whole, opening it lists once, and gets at the lengths
 * the archive records send no HEAD. Where the store has no conditional create every change,
 * the MapReduce build's included, is refused before it writes or deletes a key.
 */
@Tag("s3")
class ObjectStoreArchiveTest {
  private static final int MEMBERS = 30;
  private static final String HEAD = "action_http_head_request";
  private static final String GET = "action_http_get_request";
  private static final String LIST = "object_list_request";
  /** Positioned reads of the store's input streams. */
  private static final String READS = "stream_read_fully_operations";

  @TempDir
  static java.nio.file.Path local;
  private static S3Server server;
  private static FileSystem s3;
  private static Path archive;
  private static final Map<String, byte[]> MEMBER_BYTES = new LinkedHashMap<>();

  @BeforeAll
  static void copyAnArchiveToTheStore() throws IOException {
    server = S3Server.shared();
    s3 = server.fileSystem();
    for (int i = 0; i < MEMBERS; i++) {
      MEMBER_BYTES.put("dir" + i % 3 + "/member-" + i,
          ("member " + i + " ").repeat(1 + i * 7).getBytes(StandardCharsets.UTF_8));
    }
    Configuration conf = new Configuration();
    Path written = new Path(local.resolve("archive").toUri());
    try (ArchiveWriter writer = HpfArchive.create(written, conf)) {
      for (Map.Entry<String, byte[]> member : MEMBER_BYTES.entrySet()) {
        writer.add(member.getKey(), member.getValue());
      }
      writer.commit();
    }
    archive = new Path(server.bucketRoot(), "archives/a.hpf");
    FileUtil.copy(FileSystem.getLocal(conf), written, s3, archive, false, conf);
  }

  @Test
  void copiedArchiveReadsBackWhole() throws IOException {
    try (ArchiveReader reader = HpfArchive.openReader(archive, server.configuration())) {
      for (Map.Entry<String, byte[]> member : MEMBER_BYTES.entrySet()) {
        assertArrayEquals(member.getValue(), reader.get(member.getKey()), member.getKey());
      }
    }
    // And through hpf://, as Hadoop's tools read it.
    String name = MEMBER_BYTES.keySet().iterator().next();
    Path viaHpf = new Path("hpf://s3a-" + S3Server.BUCKET + "/archives/a.hpf/" + name);
    try (FileSystem hpf = FileSystem.newInstance(viaHpf.toUri(), server.configuration());
        FSDataInputStream in = hpf.open(viaHpf)) {
      assertArrayEquals(MEMBER_BYTES.get(name), in.readAllBytes());
    }
  }

  /**
   * A stream adds its requests to the file system's statistics when it closes: each reader here
   * is closed before its cost is read, and warm gets are what a second pass adds to a first.
   */
  @Test
  void openingListsOnceAndWarmGetsSendNoHead() throws IOException {
    Configuration classic = server.configuration();
    classic.set("fs.s3a.input.stream.type", "classic");
    for (Configuration conf : List.of(server.configuration(), classic)) {
      String stream = conf.get("fs.s3a.input.stream.type", "analytics");
      Map<String, Long> opened = readerCost(conf, 0);
      Map<String, Long> cold = readerCost(conf, 1);
      Map<String, Long> warm = readerCost(conf, 2);
      System.out.println(stream + " stream: opening " + opened + "; " + MEMBERS + " cold gets "
          + minus(cold, opened) + "; " + MEMBERS + " warm gets " + minus(warm, cold));
      assertThat(opened.get(LIST)).as("LISTs to open").isLessThanOrEqualTo(1);
      // The newest manifest is opened with the status its listing returned.
      assertThat(opened.get(HEAD)).as(stream + ": HEADs to open").isZero();
      assertThat(warm.get(LIST)).as("LISTs of gets").isEqualTo(opened.get(LIST));
      assertThat(warm.get(HEAD)).as(stream + ": HEADs of warm gets").isEqualTo(cold.get(HEAD));
      // The classic stream reuses an open range where it can, and a read that runs past its end
      // costs a second GET: at most one more per get.
      assertThat(warm.get(GET) - cold.get(GET)).as(stream + ": GETs of warm gets")
          .isLessThanOrEqualTo(stream.equals("classic") ? 2 * MEMBERS : MEMBERS);
      if (stream.equals("classic")) {
        // At the lengths the archive records, the classic stream asks for none.
        assertThat(cold.get(HEAD)).as("HEADs of cold gets, classic stream")
            .isEqualTo(opened.get(HEAD));
      }
    }
  }

  /** The requests of opening the archive and getting every member {@code passes} times. */
  private static Map<String, Long> readerCost(Configuration conf, int passes)
      throws IOException {
    try (FileSystem counted = FileSystem.newInstance(archive.toUri(), conf)) {
      try (HpfReader reader = HpfReader.open(counted, archive, ReaderOptions.defaults())) {
        for (int pass = 0; pass < passes; pass++) {
          for (Map.Entry<String, byte[]> member : MEMBER_BYTES.entrySet()) {
            assertArrayEquals(member.getValue(), reader.get(member.getKey()));
          }
        }
      }
      return counters(counted);
    }
  }

  /**
   * Through hpf:// over an object store, a stat and then an open of a member (as Hadoop's tools
   * and jobs read a file) look its record up once: an index read is a request there, so the
   * file system keeps a record cache unless told otherwise. Without one, the open reads the
   * record again. Counted as reads of the store's streams (each lookup is one), with the
   * generation checked only once; in GETs the saving is about as large with the classic stream,
   * which sends a GET per read here but sometimes reuses a connection's range.
   */
  @Test
  void hpfStatThenOpenLooksTheRecordUpOnce() throws IOException {
    Configuration classic = uncached(server.configuration());
    classic.set("fs.s3a.input.stream.type", "classic");
    classic.setLong(HpfFileSystem.CHECK_INTERVAL_KEY, 600_000);
    // Records held whole would spare both runs their record reads: the cache's saving shows
    // without them.
    classic.setLong(HpfFileSystem.INDEX_MEMORY_KEY, 0);
    // The members are opened in part order: without windows, each open reads alone.
    classic.setLong(HpfFileSystem.READ_AHEAD_KEY, 0);
    Map<String, Long> cached = statThenOpen(classic);
    Configuration none = new Configuration(classic);
    none.setLong(HpfFileSystem.RECORD_CACHE_KEY, 0);
    Map<String, Long> notCached = statThenOpen(none);
    System.out.println(MEMBERS + " stats and opens through hpf://: " + cached
        + " with the default record cache, " + notCached + " without");
    assertThat(notCached.get(READS) - cached.get(READS)).as("reads the record cache saves")
        .isEqualTo(MEMBERS);
  }

  /** The requests of a stat, then an open and read, of every member through hpf://. */
  private static Map<String, Long> statThenOpen(Configuration conf) throws IOException {
    Path root = new Path("hpf://s3a-" + S3Server.BUCKET + "/archives/a.hpf/");
    FileSystem store;
    try (FileSystem hpf = FileSystem.newInstance(root.toUri(), conf)) {
      store = ((HpfFileSystem) hpf).getUnderlyingFileSystem();
      for (Map.Entry<String, byte[]> member : MEMBER_BYTES.entrySet()) {
        Path path = new Path(root, member.getKey());
        assertThat(hpf.getFileStatus(path).getLen()).isEqualTo(member.getValue().length);
        try (FSDataInputStream in = hpf.open(path)) {
          assertArrayEquals(member.getValue(), in.readAllBytes());
        }
      }
    }
    // The archive's files stay open until the file system closes, and only then add their
    // requests to the store's statistics.
    try (store) {
      Map<String, Long> counted = counters(store);
      counted.put(READS, IOStatisticsSupport.snapshotIOStatistics(
          IOStatisticsSupport.retrieveIOStatistics(store)).counters().getOrDefault(READS, 0L));
      return counted;
    }
  }

  private static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
    Map<String, Long> difference = new LinkedHashMap<>();
    after.forEach((name, count) -> difference.put(name, count - before.get(name)));
    return difference;
  }

  @Test
  void storesDeclareTheirProfile() throws IOException {
    Configuration conf = new Configuration();
    Path disk = new Path(local.toUri());
    assertThat(StorageProfile.of(FileSystem.getLocal(conf), disk, conf))
        .isEqualTo(StorageProfile.RENAME);
    assertThat(StorageProfile.of(FileSystem.getLocal(conf).getRaw(), disk, conf))
        .isEqualTo(StorageProfile.RENAME);
    assertThat(StorageProfile.of(s3, archive, server.configuration()))
        .isEqualTo(StorageProfile.CONDITIONAL_CREATE);
    try (FileSystem unconditional = FileSystem.newInstance(archive.toUri(),
        unconditional())) {
      assertThat(StorageProfile.of(unconditional, archive, unconditional()))
          .isEqualTo(StorageProfile.READ_ONLY);
    }
    assertThat(StorageProfile.readOnlyObjectStore(s3, archive, conf)).isTrue();
    assertThat(StorageProfile.readOnlyObjectStore(FileSystem.getLocal(conf), disk, conf))
        .isFalse();
    conf.set(StorageProfile.KEY, "rename");
    assertThat(StorageProfile.of(s3, archive, conf)).isEqualTo(StorageProfile.RENAME);
    // Where the operator lets hpf write, files may change: they are opened as they are.
    assertThat(StorageProfile.readOnlyObjectStore(s3, archive, conf)).isFalse();
    conf.set(StorageProfile.KEY, "fast");
    assertThrows(IllegalArgumentException.class, () -> StorageProfile.of(s3, archive, conf));
  }

  @Test
  void changesAreRefusedWhereConditionalCreateIsOff() throws IOException {
    Configuration conf = uncached(unconditional());
    assertRefused(changes(conf), "offers no atomic rename and no conditional create"
        + " (fs.option.create.conditional.overwrite); hpf cannot commit safely there",
        "write the archive on HDFS or a local disk and copy it to the store", sourceDir(conf));
  }

  @Test
  void anOperatorCanMakeADiskReadOnly() throws IOException {
    Configuration conf = new Configuration();
    conf.set(StorageProfile.KEY, "read-only");
    Path target = new Path(local.resolve("read-only").toUri());
    UnsupportedStoreException refused = assertThrows(UnsupportedStoreException.class,
        () -> HpfArchive.create(target, conf));
    assertThat(refused).hasMessageContaining("is read-only to hpf (hpf.storage.profile=read-only)");
    assertThat(Files.exists(local.resolve("read-only"))).isFalse();
  }

  /** Every kind of change, by name, with {@code conf}; its sources hold one file. */
  private static Map<String, Executable> changes(Configuration conf) throws IOException {
    java.nio.file.Path sourceDir = sourceDir(conf);
    Files.writeString(sourceDir.resolve("member-0"), "member 0 ");
    Path sources = new Path(sourceDir.toUri());
    Path fresh = new Path(server.bucketRoot(), "archives/new.hpf");
    Map<String, Executable> changes = new LinkedHashMap<>();
    changes.put("create", () -> HpfArchive.create(fresh, conf).close());
    changes.put("create from trees",
        () -> HpfArchive.createFromTrees(fresh, conf, List.of(sources)));
    // An append, a delete, a rename of members, a compaction and a recovery all open a writer.
    changes.put("open a writer", () -> HpfArchive.openWriter(archive, conf).close());
    changes.put("job create", () -> ArchiveJob.create(conf, List.of(sources), fresh));
    changes.put("job append", () -> ArchiveJob.append(conf, List.of(sources), archive));
    changes.put("delete sources", () -> SourceRemoval.run(conf, archive, List.of(sources),
        new SourceRemoval.Options(false, 1)));
    return changes;
  }

  private static java.nio.file.Path sourceDir(Configuration conf) throws IOException {
    return Files.createDirectories(local.resolve("sources-"
        + conf.getBoolean("fs.s3a.create.conditional.enabled", true)));
  }

  /**
   * Each change fails with the message's reason and advice, no key of the bucket changed, and
   * the source is still there.
   */
  private static void assertRefused(Map<String, Executable> changes, String reason,
      String advice, java.nio.file.Path sources) throws IOException {
    SortedSet<String> before = keys();
    for (Map.Entry<String, Executable> change : changes.entrySet()) {
      UnsupportedStoreException refused = assertThrows(UnsupportedStoreException.class,
          change.getValue(), change.getKey());
      assertThat(refused).as(change.getKey()).hasMessageContaining(reason)
          .hasMessageContaining("s3a://" + S3Server.BUCKET + "/archives/")
          .hasMessageEndingWith(advice);
      assertThat(keys()).as("keys after " + change.getKey()).isEqualTo(before);
    }
    try (java.util.stream.Stream<java.nio.file.Path> left = Files.list(sources)) {
      assertThat(left.count()).as("sources in " + sources).isEqualTo(1);
    }
  }

  private static SortedSet<String> keys() throws IOException {
    return BucketKeys.below(s3, server.bucketRoot());
  }

  private static Configuration unconditional() {
    Configuration conf = server.configuration();
    conf.setBoolean("fs.s3a.create.conditional.enabled", false);
    return conf;
  }

  /** A configuration whose s3a:// file systems are its own, not the cache's. */
  private static Configuration uncached(Configuration conf) {
    conf.setBoolean("fs.s3a.impl.disable.cache", true);
    return conf;
  }

  private static Map<String, Long> counters(FileSystem fs) {
    Map<String, Long> all = IOStatisticsSupport.snapshotIOStatistics(
        IOStatisticsSupport.retrieveIOStatistics(fs)).counters();
    Map<String, Long> wanted = new LinkedHashMap<>();
    for (String name : List.of(LIST, HEAD, "object_metadata_request", GET)) {
      wanted.put(name, all.getOrDefault(name, 0L));
    }
    return wanted;
  }
}
