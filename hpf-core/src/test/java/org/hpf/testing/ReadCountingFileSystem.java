package org.hpf.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The local file system under the scheme {@code countfs} (register it with
 * {@code fs.countfs.impl}) that counts the reads of files whose names start with
 * {@code part-}: positioned reads and their bytes, and vectored reads with their ranges; and
 * apart, the positioned reads of names segments ({@code names-}) and of index files
 * ({@code index-}), with their bytes, and the opens of names segments. Its streams
 * say they read vectored natively only when {@link #VECTORED} is set (their vectored reads are
 * then the local file system's own).
 */
public final class ReadCountingFileSystem extends RawLocalFileSystem {
  /** Whether streams have the {@code in:readvectored} capability. */
  public static final String VECTORED = "hpf.test.countfs.vectored";

  private static final AtomicLong POSITIONED = new AtomicLong();
  private static final AtomicLong VECTORED_CALLS = new AtomicLong();
  private static final AtomicLong VECTORED_RANGES = new AtomicLong();
  private static final AtomicLong POSITIONED_BYTES = new AtomicLong();
  private static final AtomicLong NAMES_READS = new AtomicLong();
  private static final AtomicLong NAMES_BYTES = new AtomicLong();
  private static final AtomicLong INDEX_READS = new AtomicLong();
  private static final AtomicLong NAMES_OPENS = new AtomicLong();
  private static final AtomicLong INDEX_BYTES = new AtomicLong();

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
    POSITIONED_BYTES.set(0);
    NAMES_READS.set(0);
    NAMES_BYTES.set(0);
    INDEX_READS.set(0);
    NAMES_OPENS.set(0);
    INDEX_BYTES.set(0);
  }

  /** Positioned reads of part files since the last reset. */
  public static long positionedReads() {
    return POSITIONED.get();
  }

  /** Bytes of part files read by positioned reads since the last reset. */
  public static long positionedBytes() {
    return POSITIONED_BYTES.get();
  }

  /** Positioned reads of names segments since the last reset. */
  public static long namesReads() {
    return NAMES_READS.get();
  }

  /** Bytes of names segments read since the last reset. */
  public static long namesBytes() {
    return NAMES_BYTES.get();
  }

  /** Opens of names segments since the last reset. */
  public static long namesOpens() {
    return NAMES_OPENS.get();
  }

  /** Positioned reads of index files since the last reset. */
  public static long indexReads() {
    return INDEX_READS.get();
  }

  /** Bytes of index files read by positioned reads since the last reset. */
  public static long indexBytes() {
    return INDEX_BYTES.get();
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

  /**
   * The local status with its owner, group and permission read at once: the local file system
   * reads them lazily from the path, which must then have the scheme {@code file}.
   */
  @Override
  public FileStatus getFileStatus(Path path) throws IOException {
    FileStatus status = super.getFileStatus(path);
    PosixFileAttributes posix = Files.readAttributes(pathToFile(path).toPath(),
        PosixFileAttributes.class);
    int mode = 0;
    for (PosixFilePermission bit : posix.permissions()) {
      mode |= 0400 >> bit.ordinal(); // OWNER_READ, OWNER_WRITE, ... OTHERS_EXECUTE
    }
    return new FileStatus(status.getLen(), status.isDirectory(), status.getReplication(),
        status.getBlockSize(), status.getModificationTime(), status.getAccessTime(),
        new FsPermission((short) mode), posix.owner().getName(), posix.group().getName(),
        status.getPath());
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    FSDataInputStream in = super.open(path, bufferSize);
    if (path.getName().startsWith("part-")) {
      return new FSDataInputStream(new Counting(in, vectored, POSITIONED, POSITIONED_BYTES));
    }
    if (path.getName().startsWith("names-")) {
      NAMES_OPENS.incrementAndGet();
      return new FSDataInputStream(new Counting(in, false, NAMES_READS, NAMES_BYTES));
    }
    if (path.getName().startsWith("index-")) {
      return new FSDataInputStream(new Counting(in, false, INDEX_READS, INDEX_BYTES));
    }
    return in;
  }

  /** Counts the reads it passes on. */
  private static final class Counting extends FSInputStream implements StreamCapabilities {
    private final FSDataInputStream in;
    private final boolean vectored;
    private final AtomicLong reads;
    private final AtomicLong bytes;

    Counting(FSDataInputStream in, boolean vectored, AtomicLong reads, AtomicLong bytes) {
      this.in = in;
      this.vectored = vectored;
      this.reads = reads;
      this.bytes = bytes;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length)
        throws IOException {
      reads.incrementAndGet();
      bytes.addAndGet(length);
      in.readFully(position, buffer, offset, length);
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) throws IOException {
      reads.incrementAndGet();
      int n = in.read(position, buffer, offset, length);
      bytes.addAndGet(Math.max(0, n));
      return n;
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
