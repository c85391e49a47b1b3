package org.hpf.internal.build;

import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.SequenceFile;
import org.hpf.LimitExceededException;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.FileFooter;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.format.MemberNames;
import org.hpf.internal.write.Source;

/**
 * The job's source listing, written as the driver walks the sources: a SequenceFile of
 * {@link ListedSource}s on the archive's file system, cut into {@link SourceSplit}s as it grows
 * (a split ends after a number of files or bytes). The driver holds one split's counters and
 * the finished splits, never the listing.
 *
 * <p>Each split gets the part ids its merge can need at most. A part rolls over when the next
 * entry would not fit, so two consecutive parts of one merge thread together hold more than one
 * part's room: a thread writing E bytes of entries uses at most 2E/room + 1 parts. Where attempts
 * write their parts in place, each attempt of a split needs ids of its own: the split gets that
 * many ids once per attempt slot.
 */
final class SourceListing implements Closeable {
  /** Most part ids an archive can have (the record's 24-bit part field). */
  static final int MAX_PARTS = 1 << 24;

  /**
   * The listing's and the splits' files are the driver's alone from their creation: they name
   * every source, and only the archiving user's tasks read them.
   */
  private static final FsPermission OWNER_ONLY = new FsPermission((short) 0600);

  private final Path file;
  private final FSDataOutputStream out;
  private final SequenceFile.Writer writer;
  private final long splitFiles;
  private final long splitBytes;
  private final int threads;
  private final long partRoom;
  private final int slots;
  private final List<SourceSplit> splits = new ArrayList<>();
  private int nextPartId;
  private long start;
  private long files;
  private long bytes;
  private long entryBytes;

  SourceListing(Configuration conf, FileSystem fs, Path file, long splitFiles, long splitBytes,
      int threads, long partSize, int firstPartId, int slots) throws IOException {
    this.file = file;
    this.out = createOwnerOnly(fs, file);
    try {
      this.writer = SequenceFile.createWriter(conf, SequenceFile.Writer.stream(out),
          SequenceFile.Writer.keyClass(ListedSource.class),
          SequenceFile.Writer.valueClass(NullWritable.class));
    } catch (IOException | RuntimeException e) {
      out.close();
      throw e;
    }
    this.splitFiles = splitFiles;
    this.splitBytes = splitBytes;
    this.threads = threads;
    this.partRoom = partSize - FileHeader.SIZE - 4 - FileFooter.SIZE;
    this.nextPartId = firstPartId;
    this.slots = slots;
    this.start = writer.getLength();
  }

  /** Lists a source, of access class {@code access}. */
  void add(Source source, int access) throws IOException {
    writer.append(new ListedSource(source, access), NullWritable.get());
    files++;
    bytes += source.length();
    entryBytes += EntryHeader.maxEntryLength(MemberNames.utf8(source.name()).length,
        source.length());
    if (files >= splitFiles || bytes >= splitBytes) {
      endSplit();
    }
  }

  private void endSplit() throws IOException {
    if (files == 0) {
      return;
    }
    long parts = (2 * (entryBytes / partRoom) + 1L + threads) * slots;
    if (nextPartId + parts > MAX_PARTS) {
      throw new LimitExceededException("the sources need more than " + MAX_PARTS
          + " part ids; raise the part size (" + JobSettings.PART_SIZE + ")"
          + (slots > 1 ? " or lower " + JobSettings.ATTEMPT_SLOTS + " (" + slots + ")" : ""));
    }
    splits.add(new SourceSplit(splits.size(), file.toString(), start, files, bytes, nextPartId,
        (int) (nextPartId + parts)));
    nextPartId += (int) parts;
    start = writer.getLength();
    files = 0;
    bytes = 0;
    entryBytes = 0;
  }

  /** The first part id no split may use: the end of the ids the listing set aside. */
  int partIdLimit() {
    return nextPartId;
  }

  /** Ends the listing (synced, closed) and returns its splits. */
  List<SourceSplit> finish() throws IOException {
    endSplit();
    writer.hsync();
    writer.close();
    return splits;
  }

  @Override
  public void close() throws IOException {
    try (out) {
      writer.close(); // a writer given a stream leaves it open
    }
  }

  /** A new file of mode 0600 (no less narrow under any umask), created in one step. */
  private static FSDataOutputStream createOwnerOnly(FileSystem fs, Path path)
      throws IOException {
    return fs.create(path, OWNER_ONLY, false, fs.getConf().getInt("io.file.buffer.size", 4096),
        fs.getDefaultReplication(path), fs.getDefaultBlockSize(path), null);
  }

  /** Writes the splits where the job's input format finds them. */
  static void writeSplits(FileSystem fs, Path path, List<SourceSplit> splits)
      throws IOException {
    try (DataOutputStream out = createOwnerOnly(fs, path)) {
      out.writeInt(splits.size());
      for (SourceSplit split : splits) {
        split.write(out);
      }
    }
  }

  static List<SourceSplit> readSplits(FileSystem fs, Path path) throws IOException {
    try (DataInputStream in = fs.open(path)) {
      int count = in.readInt();
      List<SourceSplit> splits = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        SourceSplit split = new SourceSplit();
        split.readFields(in);
        splits.add(split);
      }
      return splits;
    }
  }
}
