package org.hpf.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * The local file system under the scheme {@code countfs} (register it with
 * {@code fs.countfs.impl}) that counts the reads of files whose names start with
 * {@code part-}: positioned reads, and vectored reads with their ranges. Its streams say they
 * read vectored natively only when {@link #VECTORED} is set (their vectored reads are then the
 * local file system's own).
 */
public final class ReadCountingFileSystem extends RawLocalFileSystem {
  /** Whether streams have the {@code in:readvectored} capability. */
  public static final String VECTORED = "hpf.test.countfs.vectored";

  private static final AtomicLong POSITIONED = new AtomicLong();
  private static final AtomicLong VECTORED_CALLS = new AtomicLong();
  private static final AtomicLong VECTORED_RANGES = new AtomicLong();

  private boolean vectored;

  /**
   * A configuration that maps {@code countfs://} to this file system, vectored or not.
   */
  public static Configuration conf(boolean vectored) {
    Configuration conf = new Configuration();
    conf.setClass("fs.countfs.impl", ReadCountingFileSystem.class,
        org.apache.hadoop.fs.FileSystem.class);
    conf.setBoolean("fs.countfs.impl.disable.cache", true);
    conf.setBoolean(VECTORED, vectored);
    return conf;
  }

  /** {@code file} under this file system's scheme. */
  public static Path path(java.nio.file.Path file) {
    return new Path("countfs://" + file.toAbsolutePath());
  }

  public static void reset() {
    POSITIONED.set(0);
    VECTORED_CALLS.set(0);
    VECTORED_RANGES.set(0);
  }

  /** Positioned reads of part files since the last reset. */
  public static long positionedReads() {
    return POSITIONED.get();
  }

  public static long vectoredCalls() {
    return VECTORED_CALLS.get();
  }

  public static long vectoredRanges() {
    return VECTORED_RANGES.get();
  }

  @Override
  public void initialize(URI uri, Configuration conf) throws IOException {
    super.initialize(uri, conf);
    vectored = conf.getBoolean(VECTORED, false);
  }

  @Override
  public URI getUri() {
    return URI.create("countfs:///");
  }

  @Override
  public String getScheme() {
    return "countfs";
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    FSDataInputStream in = super.open(path, bufferSize);
    if (!path.getName().startsWith("part-")) {
      return in;
    }
    return new FSDataInputStream(new Counting(in, vectored));
  }

  /** Counts the reads it passes on. */
  private static final class Counting extends FSInputStream implements StreamCapabilities {
    private final FSDataInputStream in;
    private final boolean vectored;

    Counting(FSDataInputStream in, boolean vectored) {
      this.in = in;
      this.vectored = vectored;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length)
        throws IOException {
      POSITIONED.incrementAndGet();
      in.readFully(position, buffer, offset, length);
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) throws IOException {
      POSITIONED.incrementAndGet();
      return in.read(position, buffer, offset, length);
    }

    @Override
    public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate)
        throws IOException {
      VECTORED_CALLS.incrementAndGet();
      VECTORED_RANGES.addAndGet(ranges.size());
      in.readVectored(ranges, allocate);
    }

    @Override
    public boolean hasCapability(String capability) {
      return vectored && StreamCapabilities.VECTOREDIO.equals(capability);
    }

    @Override
    public void seek(long pos) throws IOException {
      in.seek(pos);
    }

    @Override
    public long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public int read() throws IOException {
      return in.read();
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
