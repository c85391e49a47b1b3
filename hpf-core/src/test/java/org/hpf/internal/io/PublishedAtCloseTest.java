package org.hpf.internal.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Abortable;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.s3a.S3AFileSystem;
import org.hpf.minicluster.S3Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An object whose write failed part-way is never published, though its writer closes it (as
 * a try-with-resources does): not a single PUT of the bytes before the failure, and no
 * multipart upload left pending. Against a real S3-protocol server; the failure is injected
 * between the writer and S3A's stream, as a full local upload buffer would raise it.
 */
@Tag("s3")
class PublishedAtCloseTest {
  private static final int PART = 5 * 1024 * 1024;

  private static S3Server server;
  private static S3AFileSystem s3;

  @BeforeAll
  static void startServer() throws IOException {
    server = S3Server.shared();
    Configuration conf = new Configuration(server.configuration());
    conf.setInt("fs.s3a.multipart.size", PART);
    conf.setBoolean("fs.s3a.impl.disable.cache", true);
    s3 = (S3AFileSystem) server.bucketRoot().getFileSystem(conf);
  }

  @AfterAll
  static void close() throws IOException {
    if (s3 != null) {
      s3.close();
    }
  }

  @Test
  void aSmallObjectWhoseWriteFailedIsNotPublished() throws IOException {
    assertNotPublished(new Path(server.bucketRoot(), "failed-write/small"), 1000, 300);
  }

  @Test
  void aMultipartUploadWhoseWriteFailedIsAbortedNotCompleted() throws IOException {
    assertNotPublished(new Path(server.bucketRoot(), "failed-write/large"), 3 * PART / 2,
        PART / 2);
  }

  @Test
  void anObjectWrittenWholeIsPublishedAtClose() throws IOException {
    Path path = new Path(server.bucketRoot(), "failed-write/whole");
    byte[] bytes = new byte[1000];
    new Random(3).nextBytes(bytes);
    try (ArchiveOutput out = new PublishedAtClose(path, failingAfter(path, bytes.length))) {
      out.stream().write(bytes);
      assertThat(s3.exists(path)).isFalse();
    }
    assertThat(s3.getFileStatus(path).getLen()).isEqualTo(bytes.length);
  }

  /** Writes {@code before} bytes, then {@code chunk} bytes that fail; closes as callers do. */
  private static void assertNotPublished(Path path, int before, int chunk) throws IOException {
    byte[] bytes = new byte[before + chunk];
    new Random(before).nextBytes(bytes);
    IOException thrown = assertThrows(IOException.class, () -> {
      try (ArchiveOutput out = new PublishedAtClose(path, failingAfter(path, before))) {
        out.stream().write(bytes, 0, before);
        out.stream().write(bytes, before, chunk);
      }
    });
    assertThat(thrown).hasMessage("no space left in the upload buffer");
    assertThat(thrown.getSuppressed()).hasSize(1);
    assertThat(thrown.getSuppressed()[0]).hasMessageContaining("was not published");
    assertThat(s3.exists(path)).as("a partial object was published").isFalse();
    assertThat(s3.listMultipartUploads(s3.pathToKey(path))).isEmpty();
  }

  /** A conditional create of {@code path} whose writes fail once {@code budget} bytes passed. */
  private static FSDataOutputStream failingAfter(Path path, long budget) throws IOException {
    FSDataOutputStream real = (FSDataOutputStream) s3.createFile(path)
        .must(StorageProfile.CONDITIONAL_CREATE_CAPABILITY, true).build();
    return new FSDataOutputStream(new FailingStream(real, budget), null);
  }

  private static final class FailingStream extends OutputStream
      implements Abortable, StreamCapabilities {
    private final FSDataOutputStream real;
    private long budget;

    FailingStream(FSDataOutputStream real, long budget) {
      this.real = real;
      this.budget = budget;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (len > budget) {
        throw new IOException("no space left in the upload buffer");
      }
      budget -= len;
      real.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      real.close();
    }

    @Override
    public AbortableResult abort() {
      return real.abort();
    }

    @Override
    public boolean hasCapability(String capability) {
      return real.hasCapability(capability);
    }
  }
}
