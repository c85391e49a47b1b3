package org.hpf.mapreduce;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.SequentialInput;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.read.HpfReader;

/**
 * Reads the entries of a split's part range in order (one sequential pass) and returns each
 * selected member whose current index record points at that entry: its name and its bytes,
 * read through {@link HpfReader#get} and so checked against their checksum. Entries of deleted
 * or replaced members, and of members outside the selection, are skipped.
 */
final class HpfRecordReader extends RecordReader<Text, BytesWritable> {
  private static final int BUFFER = 1 << 20;

  private HpfInputSplit split;
  private HpfReader reader;
  private ArchiveInput part;
  private SequentialInput in;
  private long position;
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
      skipTo(position);
      String name = parsed.name();
      if (!split.selects(name)) {
        continue;
      }
      IndexRecord record = reader.recordOfHash(name); // the name stored in the entry
      if (record == null || record.part() != split.part() || record.offset() != entry) {
        continue; // a dead entry: deleted, or replaced by a newer one
      }
      byte[] bytes = reader.get(name);
      key.set(name);
      value.set(bytes, 0, bytes.length);
      return true;
    }
    return false;
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
