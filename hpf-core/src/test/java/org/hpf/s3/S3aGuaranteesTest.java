package org.hpf.s3;

import static org.apache.hadoop.fs.Options.OpenFileOptions.FS_OPTION_OPENFILE_LENGTH;
import static org.apache.hadoop.fs.Options.OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FutureDataInputStreamBuilder;
import org.apache.hadoop.fs.Options.CreateFileOptionKeys;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIOException;
import org.apache.hadoop.fs.s3a.RemoteFileChangedException;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsLogging;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.hpf.minicluster.S3Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What an archive on an object store relies on from Hadoop's S3A client, established against a
 * real S3-protocol server: an object appears whole at close, a conditional create loses to an
 * object already there (single PUT and multipart upload alike), listings see what was just
 * written, and reads at a known length cost no metadata request.
 */
@Tag("s3")
class S3aGuaranteesTest {
  /** S3's smallest part: S3A uploads anything larger in parts when told to. */
  private static final int PART = 5 * 1024 * 1024;
  private static final String HEAD = "action_http_head_request";
  /** The create option, and the path capability that says it is honoured. */
  private static final String CONDITIONAL_CREATE =
      CreateFileOptionKeys.FS_OPTION_CREATE_CONDITIONAL_OVERWRITE;

  private static final long CLASS_START = System.nanoTime();
  private static S3Server server;
  private static FileSystem fs;

  @BeforeAll
  static void startServer() throws IOException {
    server = S3Server.shared();
    System.out.println("S3 server started in " + server.startMillis() + " ms");
    fs = open(server.configuration());
  }

  @AfterAll
  static void closeFileSystem() throws IOException {
    if (fs != null) {
      System.out.println("S3A statistics of the class: "
          + IOStatisticsLogging.ioStatisticsToPrettyString(statistics(fs)));
      fs.close();
    }
    System.out.println("S3aGuaranteesTest took " + (System.nanoTime() - CLASS_START) / 1_000_000
        + " ms");
  }

  @Test
  void smallObjectRoundTrip() throws IOException {
    Path dir = new Path(server.bucketRoot(), "round-trip");
    Path first = new Path(dir, "a");
    Path renamed = new Path(dir, "b");
    byte[] data = randomBytes(1000, 1);

    try (FSDataOutputStream out = fs.create(first, false)) {
      out.write(data);
      out.hflush();
      // An object store has no partial objects: nothing is there before close.
      assertThat(fs.exists(first)).isFalse();
    }
    assertArrayEquals(data, readFully(fs, first));
    FileStatus[] listed = fs.listStatus(dir);
    assertThat(listed).extracting(FileStatus::getPath).containsExactly(fs.makeQualified(first));
    assertThat(listed[0].getLen()).isEqualTo(data.length);

    assertThat(fs.rename(first, renamed)).isTrue();
    assertThat(fs.exists(first)).isFalse();
    assertArrayEquals(data, readFully(fs, renamed));

    assertThat(fs.delete(renamed, false)).isTrue();
    assertThat(fs.exists(renamed)).isFalse();
    assertThat(fs.listStatus(dir)).isEmpty();
  }

  @Test
  void conditionalPutLosesToTheObjectWrittenFirst() throws IOException {
    Path path = new Path(server.bucketRoot(), "conditional/small");
    byte[] winner = randomBytes(1000, 2);

    // Two writers race: the PUT at close decides, the second gets 412 Precondition Failed.
    FSDataOutputStream first = createConditionally(fs, path);
    FSDataOutputStream second = createConditionally(fs, path);
    first.write(winner);
    second.write(randomBytes(1000, 3));
    first.close();
    RemoteFileChangedException lost = assertThrows(RemoteFileChangedException.class,
        second::close);
    System.out.println("A lost conditional PUT: " + lost);
    assertArrayEquals(winner, readFully(fs, path));

    // Once the object exists a conditional create still opens (it makes no existence check)
    // and fails the same way at close.
    FSDataOutputStream late = createConditionally(fs, path);
    late.write(randomBytes(10, 4));
    assertThrows(RemoteFileChangedException.class, late::close);
    assertArrayEquals(winner, readFully(fs, path));
  }

  /**
   * The losing CompleteMultipartUpload (If-None-Match: *) is refused with 412 as a single PUT is.
   * S3A then aborts the upload, and there this server departs from S3: its
   * AbortMultipartUpload removes the key whatever it holds, so the winner's object is gone,
   * where S3 keeps it. Tests on this server must not read an object after an upload to its key
   * was aborted.
   */
  @Test
  void conditionalMultipartUploadLosesToTheObjectWrittenFirst() throws IOException {
    Configuration conf = server.configuration();
    conf.setLong("fs.s3a.multipart.size", PART);
    conf.setLong("fs.s3a.multipart.threshold", PART);
    Path path = new Path(server.bucketRoot(), "conditional/multipart");
    byte[] winner = randomBytes(2 * PART + 1, 5);

    try (FileSystem multipart = open(conf)) {
      FSDataOutputStream first = createConditionally(multipart, path);
      FSDataOutputStream second = createConditionally(multipart, path);
      first.write(winner);
      second.write(randomBytes(2 * PART + 1, 6));
      // Each has two parts on their way up, yet nothing is visible before a close completes.
      assertThat(multipart.exists(path)).isFalse();
      first.close();
      assertArrayEquals(winner, readFully(multipart, path));
      RemoteFileChangedException lost = assertThrows(RemoteFileChangedException.class,
          second::close);
      System.out.println("A lost conditional multipart upload: " + lost);

      IOStatistics statistics = statistics(multipart);
      assertThat(counter(statistics, "object_multipart_initiated")).isGreaterThanOrEqualTo(2);
      assertThat(counter(statistics, "object_multipart_aborted")).isPositive();
      assertThat(counter(statistics, "object_delete_request")).isZero();
      assertThat(multipart.exists(path)).as("the winner's object after the loser's abort")
          .isFalse();
    }
  }

  @Test
  void conditionalCreateIsAdvertisedAndCanBeSwitchedOff() throws IOException {
    Path root = server.bucketRoot();
    assertThat(fs.hasPathCapability(root, CONDITIONAL_CREATE)).isTrue();

    Configuration conf = server.configuration();
    conf.setBoolean("fs.s3a.create.conditional.enabled", false);
    try (FileSystem unconditional = open(conf)) {
      assertThat(unconditional.hasPathCapability(root, CONDITIONAL_CREATE))
          .isFalse();
      // Asked for anyway, it is refused rather than turned into an unconditional write.
      PathIOException refused = assertThrows(PathIOException.class,
          () -> createConditionally(unconditional, new Path(root, "conditional/off")));
      assertThat(refused).hasMessageContaining("Conditional Writes Unavailable");
    }
  }

  @Test
  void statisticsCountRequests() throws IOException {
    Path path = new Path(server.bucketRoot(), "statistics/object");
    writeObject(path, randomBytes(100, 7));
    readFully(fs, path);
    fs.listStatus(path.getParent());

    IOStatistics statistics = statistics(fs);
    assertThat(counter(statistics, "object_put_request")).isPositive();
    assertThat(counter(statistics, "object_list_request")).isPositive();
    assertThat(counter(statistics, "action_http_get_request")).isPositive();
    assertThat(counter(statistics, HEAD)).isPositive();
    // Hadoop 3.5's default input stream is the Analytics Accelerator's.
    assertThat(counter(statistics, "stream_read_analytics_opened")).isPositive();
  }

  @Test
  void classicStreamAtAKnownLengthSendsNoHead() throws IOException {
    Path path = new Path(server.bucketRoot(), "open/classic");
    byte[] data = randomBytes(10_000, 8);
    writeObject(path, data);
    Configuration conf = server.configuration();
    conf.set("fs.s3a.input.stream.type", "classic");

    try (FileSystem reader = open(conf)) {
      assertThat(headsToReadAt5000(reader,
          reader.openFile(path).opt(FS_OPTION_OPENFILE_LENGTH, data.length), data))
          .isZero();
      // The counter does see the HEAD of an open without the length.
      assertThat(headsToReadAt5000(reader, reader.openFile(path), data)).isEqualTo(1);
    }
  }

  @Test
  void defaultStreamSkipsItsHeadOnlyWithTheListedStatus() throws IOException {
    Path path = new Path(server.bucketRoot(), "open/analytics");
    byte[] data = randomBytes(10_000, 9);
    writeObject(path, data);

    assertThat(headsToReadAt5000(fs,
        fs.openFile(path).opt(FS_OPTION_OPENFILE_LENGTH, data.length), data))
        .isEqualTo(1);
    FileStatus listed = fs.listStatus(path)[0];
    assertThat(headsToReadAt5000(fs, fs.openFile(path).withFileStatus(listed), data)).isZero();
  }

  @Test
  void vectoredReadReturnsEveryRange() throws Exception {
    Path path = new Path(server.bucketRoot(), "vectored/object");
    byte[] data = randomBytes(300_000, 10);
    writeObject(path, data);

    List<FileRange> ranges = List.of(FileRange.createFileRange(0, 100),
        FileRange.createFileRange(150_000, 20_000), FileRange.createFileRange(299_000, 1000));
    try (FSDataInputStream in = fs.openFile(path)
        .opt(FS_OPTION_OPENFILE_LENGTH, data.length)
        .build().join()) {
      in.readVectored(ranges, ByteBuffer::allocate);
      for (FileRange range : ranges) {
        ByteBuffer buffer = range.getData().get();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        int offset = (int) range.getOffset();
        assertArrayEquals(Arrays.copyOfRange(data, offset, offset + range.getLength()), bytes);
      }
      assertThat(counter(in.getIOStatistics(), "stream_read_vectored_operations"))
          .isEqualTo(1);
    }
  }

  private static FileSystem open(Configuration conf) throws IOException {
    return FileSystem.newInstance(server.bucketRoot().toUri(), conf);
  }

  private static FSDataOutputStream createConditionally(FileSystem fileSystem, Path path)
      throws IOException {
    // createFile() returns a raw builder type.
    return (FSDataOutputStream) fileSystem.createFile(path)
        .must(CONDITIONAL_CREATE, true)
        .build();
  }

  /** Reads 100 bytes at offset 5000 with the random read policy; returns the HEADs it cost. */
  private static long headsToReadAt5000(FileSystem reader, FutureDataInputStreamBuilder open,
      byte[] data) throws IOException {
    long before = counter(statistics(reader), HEAD);
    byte[] read = new byte[100];
    try (FSDataInputStream in = open.opt(FS_OPTION_OPENFILE_READ_POLICY, "random")
        .build().join()) {
      in.readFully(5000, read);
    }
    assertArrayEquals(Arrays.copyOfRange(data, 5000, 5100), read);
    return counter(statistics(reader), HEAD) - before;
  }

  private static void writeObject(Path path, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(path, true)) {
      out.write(data);
    }
  }

  private static byte[] readFully(FileSystem fileSystem, Path path) throws IOException {
    try (FSDataInputStream in = fileSystem.open(path)) {
      return in.readAllBytes();
    }
  }

  private static IOStatistics statistics(FileSystem fileSystem) {
    return IOStatisticsSupport.retrieveIOStatistics(fileSystem);
  }

  private static long counter(IOStatistics statistics, String name) {
    return IOStatisticsSupport.snapshotIOStatistics(statistics).counters().getOrDefault(name, 0L);
  }

  private static byte[] randomBytes(int length, long seed) {
    byte[] bytes = new byte[length];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }
}
