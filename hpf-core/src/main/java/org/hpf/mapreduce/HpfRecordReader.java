package org.hpf.mapreduce;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.hpf.LimitExceededException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.SequentialInput;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.read.EntryReader;
import org.hpf.internal.read.HpfReader;

/**
 * Reads the entries of a split's part range in order, one sequential pass in reads of a MiB, and
 * returns each selected member whose entry is live: its name and its bytes, decoded from the
 * pass itself and checked as a get checks them (header, chunk and content checksums). Whether
 * an entry is live needs no index lookup in a part the manifest counts as wholly live (nothing
 * in it was deleted or replaced); elsewhere each selected entry is looked up, and entries of
 * deleted or replaced members, and of members outside the selection, are skipped.
 */
final class HpfRecordReader extends RecordReader<Text, BytesWritable> {
  private static final int BUFFER = 1 << 20;

  private HpfInputSplit split;
  private HpfReader reader;
  private ArchiveInput part;
  private SequentialInput in;
  private long position;
  /** Every entry of the part is live: no lookups. */
  private boolean allLive;
  private final Text key = new Text();
  private final BytesWritable value = new BytesWritable();

  @Override
  public void initialize(InputSplit genericSplit, TaskAttemptContext context)
      throws IOException {
    split = (HpfInputSplit) genericSplit;
    Configuration conf = context.getConfiguration();
    Path archive = new Path(split.archive());
    reader = HpfReader.open(conf, archive);
    if (reader.generation() != split.generation()) {
      throw new IOException("archive " + archive + " changed since the job was planned: "
          + "generation " + split.generation() + " then, " + reader.generation() + " now; "
          + "run the job again");
    }
    Manifest.PartInfo info = reader.manifest().part(split.part());
    allLive = info != null && info.allLive();
    part = new HadoopStorage(archive.getFileSystem(conf), archive, (short) 0)
        .open(ArchiveLayout.part(split.part()));
    position = split.start();
    in = new SequentialInput(part, position, split.end(), BUFFER);
  }

  @Override
  public boolean nextKeyValue() throws IOException {
    while (position < split.end()) {
      long entry = position;
      byte[] fixed = new byte[EntryHeader.FIXED_SIZE];
      in.readFully(fixed, 0, fixed.length);
      int nameLength = EntryHeader.nameLength(fixed);
      byte[] header = new byte[EntryHeader.size(nameLength)];
      System.arraycopy(fixed, 0, header, 0, fixed.length);
      in.readFully(header, fixed.length, nameLength);
      EntryHeader parsed = EntryHeader.read(header, 0, header.length, part.name(), entry);
      position = entry + parsed.entryLength();
      String name = parsed.name();
      if (!split.selects(name) || !live(name, entry)) {
        skipTo(position);
        continue;
      }
      if (parsed.entryLength() > Integer.MAX_VALUE - 64) {
        throw new LimitExceededException("'" + name + "' is " + parsed.originalLength()
            + " bytes, too large for one record");
      }
      byte[] whole = new byte[(int) parsed.entryLength()];
      System.arraycopy(header, 0, whole, 0, header.length);
      in.readFully(whole, header.length, whole.length - header.length);
      byte[] bytes = EntryReader.decodeAt(whole, entry, part.name()).bytes();
      key.set(name);
      value.set(bytes, 0, bytes.length);
      return true;
    }
    return false;
  }

  /** Whether the entry of {@code name} at {@code entry} is the member's current one. */
  private boolean live(String name, long entry) throws IOException {
    if (allLive) {
      return true;
    }
    IndexRecord record = reader.recordOfHash(name); // the name stored in the entry
    return record != null && record.part() == split.part() && record.offset() == entry;
  }

  /** Moves past the stored bytes of the entry just read. */
  private void skipTo(long target) throws IOException {
    long skip = target - in.position();
    if (skip > BUFFER) {
      in = new SequentialInput(part, target, split.end(), BUFFER);
      return;
    }
    byte[] scratch = new byte[(int) Math.min(skip, 64 * 1024)];
    while (skip > 0) {
      int n = (int) Math.min(skip, scratch.length);
      in.readFully(scratch, 0, n);
      skip -= n;
    }
  }

  @Override
  public Text getCurrentKey() {
    return key;
  }

  @Override
  public BytesWritable getCurrentValue() {
    return value;
  }

  @Override
  public float getProgress() {
    long length = split.end() - split.start();
    return length == 0 ? 1f : (float) (position - split.start()) / length;
  }

  @Override
  public void close() throws IOException {
    try {
      if (part != null) {
        part.close();
      }
    } finally {
      if (reader != null) {
        reader.close();
      }
    }
  }
}
