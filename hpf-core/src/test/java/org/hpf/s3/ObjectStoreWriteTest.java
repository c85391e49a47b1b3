package org.hpf.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.S3AFileSystem;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.hpf.ArchiveExistsException;
import org.hpf.ArchiveLockedException;
import org.hpf.ConcurrentCommitException;
import org.hpf.LockLostException;
import org.hpf.NoCommittedGenerationException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.RemovalMarker;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.read.ArchiveVerifier;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.Recovery;
import org.hpf.internal.write.StoreCommits;
import org.hpf.internal.write.WriterOptions;
import org.hpf.minicluster.S3Server;
import org.hpf.testing.BucketKeys;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Archives created and changed on s3a://, against a real S3-protocol server, where hpf commits
 * by conditional create: create, append, delete and compaction read back whole and verify, with
 * no rename, no journal and no temporary manifest; a writer paused past a broken lock can neither
 * commit over the new holder's work nor lose its files to the collector before it gives up; a
 * generation the archive moved past cannot be committed again; and recovery aborts the uploads
 * a dead writer left pending.
 */
@Tag("s3")
class ObjectStoreWriteTest {
  /** Small parts: members are sealed into parts, and published, while a change is built. */
  private static final long PART_SIZE = 4 << 10;

  private static S3Server server;

  @BeforeAll
  static void startServer() throws IOException {
    server = S3Server.shared();
  }

  @Test
  void createAppendDeleteAndCompactReadBackAndVerify(TestInfo test) throws IOException {
    FileSystem s3 = cached(server.configuration());
    long renamesBefore = counter(s3, "op_rename");
    {
      Path archive = archive(test);
      Map<String, byte[]> members = new LinkedHashMap<>();
      try (ArchiveWriter writer = ArchiveWriter.create(s3.getConf(), archive, options(2))) {
        addMembers(writer, members, "first", 40);
        writer.commit();
      }
      assertHolds(s3, archive, members, 1);
      try (ArchiveWriter writer = ArchiveWriter.open(s3.getConf(), archive, options(2))) {
        addMembers(writer, members, "second", 20);
        writer.commit();
        assertHolds(s3, archive, members, 2);

        List<String> deleted = members.keySet().stream().filter(n -> n.hashCode() % 3 == 0)
            .toList();
        writer.delete(deleted);
        deleted.forEach(members::remove);
        assertHolds(s3, archive, members, 3);

        assertThat(writer.compact(0.99).generation()).isEqualTo(4);
        assertHolds(s3, archive, members, 4);
      }
      SortedSet<String> keys = BucketKeys.files(s3, archive);
      assertThat(keys).noneMatch(key -> key.contains("_journal") || key.contains(".tmp-")
          || key.contains("_lock"));
      // Retention keeps two generations, and nothing else is left.
      Set<String> named = new TreeSet<>();
      ArchiveStorage storage = HdfsIntegration.storage(s3, archive);
      for (long generation : List.of(3L, 4L)) {
        named.add(Manifest.fileName(generation));
        named.addAll(filesOf(storage, generation));
      }
      assertThat(keys).isEqualTo(named);
      assertThat(counter(s3, "op_rename") - renamesBefore).as("renames").isZero();
    }
  }

  /**
   * A writer that stalls mid-change loses its lock to one that breaks it: the new holder's
   * recovery commits the newest generation again, so the stalled writer's files can never be
   * named by a commit, and collects the parts it had published. The stalled writer then fails
   * to commit, saying that its lock was lost, and the archive holds what it held, verified.
   */
  @Test
  void aStalledWritersFilesAreFencedOffThenCollected(TestInfo test) throws IOException {
    FileSystem stalledFs = cached(server.configuration());
    FileSystem breakerFs = stalledFs;
    {
      Path archive = archive(test);
      Map<String, byte[]> members = new LinkedHashMap<>();
      try (ArchiveWriter writer = ArchiveWriter.create(stalledFs.getConf(), archive,
          options(1))) {
        addMembers(writer, members, "kept", 10);
        writer.commit();
      }
      ArchiveWriter stalled = ArchiveWriter.open(stalledFs.getConf(), archive, options(1));
      Map<String, byte[]> lost = new LinkedHashMap<>();
      addMembers(stalled, lost, "stalled", 20);
      SortedSet<String> published = BucketKeys.files(breakerFs, archive);
      assertThat(published).as("parts the stalled writer sealed")
          .anyMatch(key -> key.startsWith("part-") && ArchiveLayout.partId(key) >= 1);
      Recovery.Report report = ArchiveWriter.recover(breakerFs.getConf(), archive, breaking());
      assertThat(report.generation()).isEqualTo(2);
      assertThat(report.rolledBack()).contains("generation 2 is generation 1 again");
      assertThat(BucketKeys.files(breakerFs, archive))
          .noneMatch(key -> key.startsWith("part-") && !isPartOf(breakerFs, archive, key));

      LockLostException refused = assertThrows(LockLostException.class, stalled::commit);
      assertThat(refused).hasMessageContaining("the lock file is gone");
      stalled.close();
      assertHolds(breakerFs, archive, members, 2);
    }
  }

  /**
   * A writer's lock is broken while it writes a part (open, so not yet seen on the store): the
   * new holder takes part ids above all the fenced writer may still add, so both parts close
   * under names of their own, the holder commits, and the fenced writer fails as lock lost,
   * having committed nothing. It creates no other part once its lock is gone.
   */
  @Test
  void aWriterWhoseLockWasBrokenTakesNoNameOfTheNewHolder(TestInfo test) throws IOException {
    Configuration conf = server.configuration();
    FileSystem s3 = cached(conf);
    Path archive = archive(test);
    Map<String, byte[]> members = new LinkedHashMap<>();
    createWith(conf, archive, members, "seed", 2);
    ArchiveStorage storage = HdfsIntegration.storage(s3, archive);
    Manifest base = Manifest.read(storage, 1);
    ArchiveWriter fenced = ArchiveWriter.open(conf, archive, options(1));
    // Its part, id base.partIdFloor(), is open: not on the store yet.
    fenced.add("fenced", new byte[] {1}, 0);
    try (ArchiveWriter holder = ArchiveWriter.open(conf, archive, breaking())) {
      addMembers(holder, members, "holder", 3);
      holder.commit();
    }
    // Not told yet, it fills its part and needs another: refused before it is created.
    LockLostException lost = assertThrows(LockLostException.class, () -> {
      for (int i = 0; i < 3; i++) {
        fenced.add("more-" + i, new byte[(int) PART_SIZE], 0);
      }
    });
    assertThat(lost).hasMessageContaining("committed nothing");
    // Nor can it remove what it wrote: the next recovery collects that.
    assertThrows(LockLostException.class, fenced::close);
    s3.exists(new Path(archive, "flush-marker")); // every earlier request is logged now
    String next = ArchiveLayout.part(base.partIdFloor() + 1);
    assertThat(server.requests()).noneMatch(line -> line.contains(test.getTestMethod()
        .orElseThrow().getName() + ".hpf/" + next));
    // Generation 2 is 1 again, raising the floor; the holder's change is 3.
    assertHolds(s3, archive, members, 3);
    // One lane: the fenced writer may still add the part it has open and take one more id.
    assertThat(Manifest.read(storage, 3).parts()).filteredOn(part -> base.part(part.id()) == null)
        .isNotEmpty().allSatisfy(part -> assertThat(part.id())
            .isGreaterThanOrEqualTo(base.partIdFloor() + 2));
  }

  /**
   * Retention deletes old manifests: a writer that built on generation 1 and stalled while the
   * archive went on to generation 3 (1 and 2 deleted) finds generation 2's name free. Its
   * create of it succeeds, but generation 1 is gone, so it is told it did not commit, and the
   * manifest it created is removed; readers never saw it.
   */
  @Test
  void aGenerationTheArchiveMovedPastIsNotCommittedAgain(TestInfo test) throws IOException {
    FileSystem s3 = cached(server.configuration());
    {
      Path archive = archive(test);
      Map<String, byte[]> members = new LinkedHashMap<>();
      WriterOptions keepOne = options(1).toBuilder().settings(s -> s.retainGenerations(1))
          .build();
      try (ArchiveWriter writer = ArchiveWriter.create(s3.getConf(), archive, keepOne)) {
        addMembers(writer, members, "a", 3);
        writer.commit();
      }
      ArchiveStorage storage = HdfsIntegration.storage(s3, archive);
      Manifest first = Manifest.read(storage, 1);
      try (ArchiveWriter writer = ArchiveWriter.open(s3.getConf(), archive, keepOne)) {
        addMembers(writer, members, "b", 3);
        writer.commit();
        addMembers(writer, members, "c", 3);
        writer.commit();
      }
      assertThat(storage.list(Manifest.DIR)).containsExactly("manifest-0000000003");

      ConcurrentCommitException refused = assertThrows(ConcurrentCommitException.class,
          () -> StoreCommits.publish(storage, first.republished(2, 0), first));
      assertThat(refused).hasMessageContaining("generation 1, which this change built on, was "
          + "removed");
      assertThat(storage.list(Manifest.DIR)).containsExactly("manifest-0000000003");
      assertHolds(s3, archive, members, 3);

      // The generation it built on still there as it read it: the create is the commit.
      Manifest third = Manifest.read(storage, 3);
      assertThat(StoreCommits.publish(storage, third.republished(4, 0), third)).isEmpty();
      // And the same generation again loses to it.
      assertThat(assertThrows(ConcurrentCommitException.class,
          () -> StoreCommits.publish(storage, third.republished(4, 0), third)))
          .hasMessageContaining("its manifest exists");
      assertHolds(s3, archive, members, 4);

      // The create of generation 5 succeeds but the check after it cannot read: whether it is
      // committed is unknown, and its manifest stays.
      Manifest fourth = Manifest.read(storage, 4);
      ArchiveStorage unreadable = new org.hpf.internal.io.ForwardingStorage(storage) {
        @Override
        public org.hpf.internal.io.ArchiveInput open(String name) throws IOException {
          throw new IOException("no reads");
        }

        @Override
        public org.hpf.internal.io.ArchiveInput open(String name, long length)
            throws IOException {
          throw new IOException("no reads");
        }
      };
      assertThat(assertThrows(IOException.class,
          () -> StoreCommits.publish(unreadable, fourth.republished(5, 0), fourth)))
          .hasMessageContaining("could not tell whether generation 5 was committed")
          .hasMessageContaining("nothing was removed");
      assertThat(storage.list(Manifest.DIR)).contains("manifest-0000000005");
    }
  }

  /** Recovery aborts the uploads under the archive that a dead writer started. */
  @Test
  void recoveryAbortsPendingUploads(TestInfo test) throws IOException {
    Configuration conf = server.configuration();
    conf.setLong("fs.s3a.multipart.size", 5 << 20);
    // A client of its own: its statistics are this test's, and its upload size is small.
    conf.setBoolean("fs.s3a.impl.disable.cache", true);
    try (S3AFileSystem s3 = (S3AFileSystem) FileSystem.newInstance(server.bucketRoot().toUri(),
        conf)) {
      Path archive = archive(test);
      Map<String, byte[]> members = new LinkedHashMap<>();
      createWith(conf, archive, members, "a", 3);
      // A part larger than the upload's part size, never closed: its upload stays pending.
      FSDataOutputStream abandoned = s3.create(new Path(archive, ArchiveLayout.part(99)));
      abandoned.write(new byte[6 << 20]);
      String prefix = s3.pathToKey(archive) + "/";
      assertThat(s3.listMultipartUploads(prefix)).hasSize(1);
      ArchiveWriter.recover(s3.getConf(), archive, options(1));
      assertThat(s3.listMultipartUploads(prefix)).isEmpty();
      assertHolds(s3, archive, members, 1);
    }
  }

  /**
   * A create that never committed, its writer stalled past its lock with parts published and an
   * upload pending: it is not an archive, and a create there is told to recover. Recovery,
   * breaking the lock, removes every object and the upload, so the path is free again; the
   * stalled writer, resuming, cannot commit (the files its manifest would name are gone) and
   * removes what it wrote since. A create there then succeeds.
   */
  @Test
  void aCreateThatNeverCommittedIsRemovedByRecovery(TestInfo test) throws IOException {
    Configuration conf = server.configuration();
    conf.setLong("fs.s3a.multipart.size", 5 << 20);
    conf.setBoolean("fs.s3a.impl.disable.cache", true);
    try (S3AFileSystem s3 = (S3AFileSystem) FileSystem.newInstance(server.bucketRoot().toUri(),
        conf)) {
      Path archive = archive(test);
      String prefix = s3.pathToKey(archive) + "/";
      ArchiveWriter stalled = ArchiveWriter.create(conf, archive, options(1));
      addMembers(stalled, new LinkedHashMap<>(), "lost", 20);
      FSDataOutputStream abandoned = s3.create(new Path(archive, ArchiveLayout.part(99)));
      abandoned.write(new byte[6 << 20]);
      assertThat(BucketKeys.files(s3, archive)).anyMatch(key -> key.startsWith("part-"));
      assertThat(s3.listMultipartUploads(prefix)).hasSize(1);

      assertThrows(NoCommittedGenerationException.class,
          () -> HpfReader.open(s3, archive, ReaderOptions.defaults()));
      assertThat(assertThrows(ArchiveExistsException.class,
          () -> ArchiveWriter.create(conf, archive, options(1))))
          .hasMessageContaining("a create that never committed").hasMessageContaining("recover");
      Recovery.Report report = ArchiveWriter.recover(conf, archive, breaking());
      assertThat(report.removedCreate()).isTrue();
      assertThat(report.describe()).contains("never committed");
      assertThat(s3.exists(archive)).as("any object or directory marker").isFalse();
      assertThat(s3.listMultipartUploads(prefix)).isEmpty();

      // Its lock went with the archive: it says lock lost, and that it committed nothing.
      assertThat(assertThrows(LockLostException.class, stalled::commit))
          .hasMessageContaining("the lock file is gone").hasMessageContaining("committed nothing");
      stalled.close();
      assertThat(s3.exists(archive)).isFalse();

      Map<String, byte[]> members = new LinkedHashMap<>();
      createWith(conf, archive, members, "again", 5);
      assertHolds(s3, archive, members, 1);
    }
  }

  /**
   * Once recovery removed a create that never committed, its names are free: another create
   * takes them (its first parts have the same names), commits, and goes on to generation 3,
   * whose retention frees generation 1's manifest name. The first creator, paused through all
   * this, then fails to commit and cleans up, and leaves every file of the new archive alone,
   * although it created files of the same names before and could create generation 1's again.
   */
  @Test
  void aPausedCreatorLeavesTheArchiveCreatedAfterItsRemoval(TestInfo test) throws IOException {
    Configuration conf = server.configuration();
    FileSystem s3 = cached(conf);
    Path archive = archive(test);
    ArchiveWriter paused = ArchiveWriter.create(conf, archive, options(1));
    addMembers(paused, new LinkedHashMap<>(), "lost", 20);
    SortedSet<String> pausedFiles = BucketKeys.files(s3, archive);
    assertThat(ArchiveWriter.recover(conf, archive, breaking()).removedCreate()).isTrue();

    Map<String, byte[]> members = new LinkedHashMap<>();
    createWith(conf, archive, members, "kept", 20);
    assertThat(BucketKeys.files(s3, archive)).as("names both creates wrote")
        .containsAnyElementsOf(pausedFiles.stream().filter(f -> f.startsWith("part-")).toList());
    // On to generation 3, keeping one: generation 1's manifest name is free again.
    WriterOptions keepOne = options(1).toBuilder().settings(s -> s.retainGenerations(1)).build();
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, keepOne)) {
      addMembers(writer, members, "more", 3);
      writer.commit();
      addMembers(writer, members, "most", 3);
      writer.commit();
    }

    // Its lock was broken, and its files of generation 1 or its manifest lose to the new
    // archive's.
    assertThrows(LockLostException.class, paused::commit);
    paused.close();
    assertHolds(s3, archive, members, 3);
    ArchiveStorage storage = HdfsIntegration.storage(s3, archive);
    Set<String> named = new TreeSet<>(filesOf(storage, 3));
    named.add(Manifest.fileName(3));
    assertThat(BucketKeys.files(s3, archive)).isEqualTo(named);
  }

  /**
   * A removal that died after taking generation 1's name: readers are told the archive is being
   * removed, a create there is told to recover, a stalled creator cannot commit while the marker
   * is there, and the next recovery (here, opening a writer, which then reports that there is no
   * archive) finishes the removal.
   */
  @Test
  void aRemovalThatDiedIsFinishedByTheNextRecovery(TestInfo test) throws IOException {
    Configuration conf = server.configuration();
    FileSystem s3 = cached(conf);
    Path archive = archive(test);
    ArchiveWriter stalled = ArchiveWriter.create(conf, archive, options(1));
    addMembers(stalled, new LinkedHashMap<>(), "lost", 20);
    try (FSDataOutputStream marker = s3.create(new Path(archive, RemovalMarker.NAME))) {
      marker.write(RemovalMarker.bytes());
    }
    assertThat(assertThrows(NoCommittedGenerationException.class,
        () -> HpfReader.open(s3, archive, ReaderOptions.defaults())))
        .hasMessageContaining("being removed");
    assertThat(assertThrows(ArchiveExistsException.class,
        () -> ArchiveWriter.create(conf, archive, options(1))))
        .hasMessageContaining("hpf recover removes it");
    assertThat(assertThrows(ConcurrentCommitException.class, stalled::commit))
        .hasMessageContaining("its manifest exists");
    assertThat(BucketKeys.files(s3, archive)).as("the marker and the stalled writer's files")
        .contains(RemovalMarker.NAME, ArchiveLayout.LOCK).hasSizeGreaterThan(2);

    assertThat(assertThrows(java.io.FileNotFoundException.class,
        () -> ArchiveWriter.open(conf, archive, breaking())))
        .hasMessageContaining("a create that never committed was there");
    assertThat(s3.exists(archive)).isFalse();
    stalled.close(); // nothing of its create is left to remove
    assertThat(s3.exists(archive)).isFalse();
  }

  private static boolean isPartOf(FileSystem fs, Path archive, String key) {
    try (HpfReader reader = HpfReader.open(fs, archive, ReaderOptions.defaults())) {
      return reader.manifest().part(ArchiveLayout.partId(key)) != null;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Set<String> filesOf(ArchiveStorage storage, long generation)
      throws IOException {
    return StoreCommits.filesOf(storage, generation);
  }

  /** The archive is at {@code generation}, holds exactly {@code members}, and verifies. */
  /**
   * A writer takes the lock by its conditional PUT alone, asking nothing about {@code _lock}
   * first (S3A's existence question is a HEAD and a LIST): the PUT itself refuses a lock that is
   * there, so a second writer is still locked out, by its holder's name.
   */
  @Test
  void theLockIsTakenByItsConditionalPutAlone(TestInfo test) throws IOException {
    FileSystem s3 = cached(server.configuration());
    Path archive = archive(test);
    Map<String, byte[]> members = new LinkedHashMap<>();
    createWith(s3.getConf(), archive, members, "first", 3);
    String key = archive.toUri().getPath().substring(1) + "/" + ArchiveLayout.LOCK;
    String lock = "/" + S3Server.BUCKET + "/" + key;
    int before = server.requests().size();
    try (ArchiveWriter writer = ArchiveWriter.open(s3.getConf(), archive, options(1))) {
      ArchiveLockedException locked = assertThrows(ArchiveLockedException.class,
          () -> ArchiveWriter.open(s3.getConf(), archive, options(1)));
      assertThat(locked.getMessage()).contains(" is locked by another writer in this process (");
      addMembers(writer, members, "second", 2);
      writer.commit();
    }
    // One more request: the server logs each once it has answered it, one at a time.
    s3.exists(new Path(server.bucketRoot(), "flush-marker"));
    List<String> sent = server.requests();
    List<String> aboutTheLock = sent.subList(before, sent.size()).stream()
        .filter(line -> line.contains(lock + "- ")
            || line.contains("prefix=" + key.replace("/", "%2F") + "%2F"))
        .toList();
    // Each writer's PUT, the first answered, the second refused; then the holder's release.
    assertThat(aboutTheLock.subList(0, 2)).as(aboutTheLock.toString())
        .containsExactly("PUT " + lock + "- 200", "PUT " + lock + "- 412");
    assertHolds(s3, archive, members, 2);
  }

  private static void assertHolds(FileSystem fs, Path archive, Map<String, byte[]> members,
      long generation) throws IOException {
    try (HpfReader reader = HpfReader.open(fs, archive, ReaderOptions.defaults())) {
      assertThat(reader.manifest().generation()).isEqualTo(generation);
      assertThat(reader.manifest().fileCount()).isEqualTo(members.size());
      for (Map.Entry<String, byte[]> member : members.entrySet()) {
        assertArrayEquals(member.getValue(), reader.get(member.getKey()), member.getKey());
      }
    }
    ArchiveVerifier.Report report = ArchiveVerifier.verify(HdfsIntegration.storage(fs, archive),
        ReaderOptions.defaults(), bytes -> {});
    assertThat(report.ok()).as(report.problems().toString()).isTrue();
  }

  private static void addMembers(ArchiveWriter writer, Map<String, byte[]> members,
      String prefix, int count) throws IOException {
    for (int i = 0; i < count; i++) {
      String name = prefix + "/" + i % 4 + "/member-" + i;
      byte[] bytes = (name + " ").repeat(20 + i * 13).getBytes(StandardCharsets.UTF_8);
      writer.add(name, bytes, 1_700_000_000_000L + i);
      members.put(name, bytes);
    }
  }

  /** A writer's options that break the lock first. */
  private static WriterOptions breaking() {
    return options(1).toBuilder().settings(s -> s.breakLock(true)).build();
  }

  /** Creates {@code archive} with {@code count} members, committed, noted in {@code members}. */
  private static void createWith(Configuration conf, Path archive, Map<String, byte[]> members,
      String prefix, int count) throws IOException {
    try (ArchiveWriter writer = ArchiveWriter.create(conf, archive, options(1))) {
      addMembers(writer, members, prefix, count);
      writer.commit();
    }
  }

  private static WriterOptions options(int threads) {
    return WriterOptions.builder().settings(s -> s.threads(threads))
        .layout(l -> l.withPartSize(PART_SIZE)).build();
  }

  private static Path archive(TestInfo test) {
    return new Path(server.bucketRoot(), "writes/" + test.getTestMethod().orElseThrow()
        .getName() + ".hpf");
  }

  /** The client writers get for {@code conf}: Hadoop's cached one. */
  private static FileSystem cached(Configuration conf) throws IOException {
    return server.bucketRoot().getFileSystem(conf);
  }

  private static long counter(FileSystem fs, String name) {
    return IOStatisticsSupport.snapshotIOStatistics(
        IOStatisticsSupport.retrieveIOStatistics(fs)).counters().getOrDefault(name, 0L);
  }
}
