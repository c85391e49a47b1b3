package org.hpf.internal.io;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.fs.Abortable;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An object being written with a conditional create: it appears whole at close, or not at all
 * where another writer's object took the name first, which is reported as {@link
 * FileAlreadyExistsException}. Syncs do nothing: nothing is visible, or durable, before close.
 *
 * <p>An object a write to which failed (a full local upload buffer, a failed part upload) is
 * aborted at close, never published: closing it, as a try-with-resources does after the
 * failure, would otherwise publish the bytes written before it, a truncated manifest or lock
 * included, under a name no other writer could then take.
 */
final class PublishedAtClose implements ArchiveOutput {
  private static final Logger LOG = LoggerFactory.getLogger(PublishedAtClose.class);

  private final Path path;
  private final FSDataOutputStream out;
  private final OutputStream stream;
  private IOException failed;

  PublishedAtClose(Path path, FSDataOutputStream out) {
    this.path = path;
    this.out = out;
    this.stream = new FilterOutputStream(out) {
      @Override
      public void write(int b) throws IOException {
        watched(() -> out.write(b));
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        watched(() -> out.write(b, off, len));
      }

      @Override
      public void flush() throws IOException {
        watched(out::flush);
      }

      @Override
      public void close() throws IOException {
        PublishedAtClose.this.close();
      }
    };
  }

  @FunctionalInterface
  private interface Write {
    void run() throws IOException;
  }

  private void watched(Write write) throws IOException {
    if (failed != null) {
      throw new IOException("an earlier write to " + path + " failed", failed);
    }
    try {
      write.run();
    } catch (IOException | RuntimeException e) {
      failed = e instanceof IOException io ? io : new IOException(e);
      throw e;
    }
  }

  @Override
  public OutputStream stream() {
    return stream;
  }

  @Override
  public void flush() {}

  @Override
  public void sync() {}

  @Override
  public void close() throws IOException {
    if (failed != null) {
      abort();
      throw new IOException(path + " was not published: a write to it failed", failed);
    }
    try {
      out.close();
    } catch (IOException e) {
      if (lostToAnExistingObject(e)) {
        FileAlreadyExistsException exists = new FileAlreadyExistsException(path
            + " already exists: another writer created it first");
        exists.initCause(e);
        throw exists;
      }
      throw e;
    }
  }

  /**
   * Drops what was written. A stream that cannot abort is left unclosed, which publishes
   * nothing either (S3A uploads a single-block object only at close; the parts of a multipart
   * upload left pending are collected by the next writer's recovery).
   */
  private void abort() {
    if (!out.hasCapability(StreamCapabilities.ABORTABLE_STREAM)) {
      LOG.warn("{}: a write failed and the stream cannot abort: left unclosed, unpublished",
          path);
      return;
    }
    Abortable.AbortableResult result = out.abort();
    if (result.anyCleanupException() != null) {
      LOG.warn("{}: aborting the upload after a failed write: {}", path,
          result.anyCleanupException().toString());
    }
  }

  /** S3A reports a refused If-None-Match (HTTP 412) as a RemoteFileChangedException. */
  private static boolean lostToAnExistingObject(IOException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause.getClass().getName().endsWith(".RemoteFileChangedException")) {
        return true;
      }
    }
    return false;
  }
}
