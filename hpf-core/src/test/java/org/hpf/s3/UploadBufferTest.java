package org.hpf.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.hpf.ArchiveReader;
import org.hpf.HpfArchive;
import org.hpf.internal.io.LocalModes;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;
import org.hpf.minicluster.S3Server;
import org.hpf.testing.DefaultUploadBuffers;
import org.hpf.testing.OtherUser;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * While a writer uploads a part on s3a://, S3A keeps each block of it in a local file
 * ({@code fs.s3a.fast.upload.buffer=disk}, the default) until the block is uploaded: the
 * member's bytes. With S3A's default place for them ({@code ${hadoop.tmp.dir}/s3a}, made
 * {@code rwxr-xr-x}, its files {@code rw-r--r--}) any user of the machine could read them. A
 * member larger than a few blocks stops midway while its bytes stream in, and the test looks at
 * every block file on the local disk then: none may be reachable by another user, and the
 * unprivileged {@code nobody} may read none.
 */
@Tag("s3")
class UploadBufferTest {
  private static final int BLOCK = 5 << 20; // S3A's smallest multipart size
  private static final int MEMBER = 24 << 20; // larger than what a writer reads whole
  private static final int STALL_AT = 12 << 20;

  /** Stands for {@code /tmp}: where hadoop.tmp.dir and the writer's scratch directory are. */
  @TempDir
  java.nio.file.Path tmp;

  @Test
  void noUploadBlockIsReadableByAnotherUser() throws Exception {
    LocalModes.set(tmp, 0755);
    S3Server server = S3Server.shared();
    java.nio.file.Path hadoopTmp = tmp.resolve("hadoop-user");
    Configuration conf = DefaultUploadBuffers.of(server.configuration(), hadoopTmp);
    conf.set("fs.s3a.multipart.size", String.valueOf(BLOCK));
    conf.set("fs.s3a.block.size", String.valueOf(BLOCK));
    // A bucket of its own: Hadoop's cached client of the shared one has the test buffers.
    Path archive = new Path(server.bucket("upload-buffers"), "member.hpf");
    byte[] bytes = new byte[MEMBER];
    new Random(40).nextBytes(bytes);
    StallingStream in = new StallingStream(bytes, STALL_AT);
    WriterOptions options = WriterOptions.builder().settings(s -> s.threads(1)
        .scratchDirectory(tmp)).layout(l -> l.withPartSize(64 << 20)).build();

    List<String> exposed = new ArrayList<>();
    try (ArchiveWriter writer = ArchiveWriter.create(conf, archive, options)) {
      CompletableFuture<Void> adding = CompletableFuture.runAsync(() -> {
        try {
          writer.add("big.bin", in, bytes.length, 0);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      try {
        assertThat(in.stalled.await(60, TimeUnit.SECONDS)).as("the member streams").isTrue();
        List<java.nio.file.Path> blocks = blockFilesWithin(30);
        assertThat(blocks).as("block files on the local disk while the part uploads")
            .isNotEmpty();
        for (java.nio.file.Path block : blocks) {
          String reach = reachability(block);
          boolean read = OtherUser.available() && OtherUser.canRead(block);
          if (reach != null || read) {
            exposed.add((reach != null ? reach : tmp.relativize(block).toString())
                + (read ? ", read by nobody" : ""));
          }
        }
      } finally {
        in.release.countDown();
      }
      adding.get(60, TimeUnit.SECONDS);
      writer.commit();
    }
    assertThat(exposed).as("upload blocks another user could read").isEmpty();
    assertThat(hadoopTmp.resolve("s3a")).as("S3A's default buffer directory").doesNotExist();
    try (ArchiveReader reader = HpfArchive.openReader(archive, conf)) {
      assertArrayEquals(bytes, reader.get("big.bin"));
    }
  }

  /** S3A's block files anywhere below {@link #tmp}, once there is one (or the time is up). */
  private List<java.nio.file.Path> blockFilesWithin(long seconds) throws IOException,
      InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      List<java.nio.file.Path> blocks;
      try (Stream<java.nio.file.Path> all = Files.walk(tmp)) {
        blocks = all.filter(p -> p.getFileName().toString().startsWith("s3ablock"))
            .toList();
      } catch (UncheckedIOException e) {
        blocks = List.of(); // a block uploaded and deleted during the walk
      }
      if (!blocks.isEmpty() || System.nanoTime() > deadline) {
        return blocks;
      }
      Thread.sleep(10); // polls for S3A's block files while the upload runs; bounded above
    }
  }

  /**
   * How another user (of the writer's group or not) reaches {@code file}'s bytes, from
   * {@link #tmp} down, with each mode on the way; null where a directory or the file keeps
   * them out.
   */
  private String reachability(java.nio.file.Path file) throws IOException {
    StringBuilder way = new StringBuilder();
    java.nio.file.Path at = tmp;
    for (java.nio.file.Path step : tmp.relativize(file)) {
      at = at.resolve(step);
      int mode = LocalModes.of(at);
      boolean open = Files.isDirectory(at) ? (mode & 0011) != 0 : (mode & 0044) != 0;
      if (!open) {
        return null;
      }
      way.append(way.length() == 0 ? "" : "/").append(step).append(" (")
          .append(Integer.toOctalString(mode)).append(')');
    }
    return way.toString();
  }

  /** The member's bytes, stopping at {@code stallAt} until the test has looked. */
  private static final class StallingStream extends InputStream {
    final CountDownLatch stalled = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private final byte[] bytes;
    private final int stallAt;
    private int position;

    StallingStream(byte[] bytes, int stallAt) {
      this.bytes = bytes;
      this.stallAt = stallAt;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (position == stallAt) {
        stalled.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("stopped");
        }
      }
      if (position == bytes.length) {
        return -1;
      }
      int end = position < stallAt ? stallAt : bytes.length;
      int n = Math.min(len, end - position);
      System.arraycopy(bytes, position, b, off, n);
      position += n;
      return n;
    }
  }
}
