package org.hpf.crash;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.hpf.internal.format.ArchiveLayout;
import java.util.concurrent.atomic.AtomicInteger;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.ForwardingStorage;

/**
 * An archive as a writer on another machine sees it once the lock's holder has stopped
 * renewing its HDFS lease past the soft limit: the lock line names a process of another boot
 * (so its pid is no evidence either way), and the lock file's writer is gone. That is the
 * evidence a takeover needs ({@code WriterLock.whyGone}); in one test process, whose actors
 * share a pid and whose clients renew their leases while they are held, nothing else can give
 * it. Only what is read changes: every storage call is the real one.
 */
final class ExpiredLeaseView extends ForwardingStorage {
  /** Takeovers begun through any view in this process: a sweep shows it made some. */
  private static final AtomicInteger TAKEOVERS = new AtomicInteger();

  ExpiredLeaseView(ArchiveStorage delegate) {
    super(delegate);
  }

  static int takeoversBegun() {
    return TAKEOVERS.get();
  }

  @Override
  public ArchiveOutput create(String name, long blockSize) throws IOException {
    if (name.equals(ArchiveLayout.LOCK_TAKEOVER)) {
      TAKEOVERS.incrementAndGet();
    }
    return super.create(name, blockSize);
  }

  @Override
  public ArchiveInput open(String name) throws IOException {
    ArchiveInput file = super.open(name);
    if (!name.equals(ArchiveLayout.LOCK)) {
      return file;
    }
    try (file) {
      byte[] line = file.readFully(0, (int) Math.min(file.length(), 4096));
      return new LineInput(name, new String(line, StandardCharsets.UTF_8)
          .replaceFirst("; boot ([^;\\s]+)", "; boot $1-elsewhere")
          .getBytes(StandardCharsets.UTF_8));
    }
  }

  @Override
  public boolean writerIsGone(String name) throws IOException {
    return name.equals(ArchiveLayout.LOCK) || super.writerIsGone(name);
  }

  /** A lock line, read once, served from memory. */
  private record LineInput(String name, byte[] bytes) implements ArchiveInput {
    @Override
    public long length() {
      return bytes.length;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length)
        throws IOException {
      if (position < 0 || position + length > bytes.length) {
        throw new java.io.EOFException("read past the end of " + name);
      }
      System.arraycopy(bytes, (int) position, buffer, offset, length);
    }

    @Override
    public void close() {}
  }
}
