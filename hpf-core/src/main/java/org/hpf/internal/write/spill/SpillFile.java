package org.hpf.internal.write.spill;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.SequenceFile;

/**
 * The scratch files of entries that outgrew the heap they may use: appended to a sequence file
 * in a private directory of their own, then read back sorted or in the order appended.
 */
final class SpillFile implements Closeable {
  /** Memory for one sort pass: a quarter holds the entries of a run (SequenceFile.Sorter). */
  static final int SORT_MEMORY = 32 << 20;
  /** Runs merged at once. */
  static final int MERGE_FACTOR = 100;

  private final LocalFileSystem local;
  private final Configuration conf;
  private final Path dir;
  private final Path input;
  private final BytesWritable key = new BytesWritable();
  private SequenceFile.Writer writer;
  private FSDataOutputStream file;
  /** The reader of {@link #inOrder}, closed with the spill file if not read to its end. */
  private SequenceFile.Reader reader;

  SpillFile(Scratch scratch, String purpose) throws IOException {
    this.local = scratch.fileSystem();
    this.dir = new Path(scratch.root(), purpose + "-" + UUID.randomUUID());
    // A merge of many runs writes its passes where this names, else below hadoop.tmp.dir.
    this.conf = new Configuration(scratch.conf());
    conf.set("io.seqfile.local.dir", local.pathToFile(new Path(dir, "merges")).getPath());
    this.input = new Path(dir, "unsorted");
    Scratch.createPrivateDirectory(local.pathToFile(dir).toPath());
    // Sequence files create theirs through the file system their path names, which Hadoop
    // caches with someone else's umask: this one is created through the scratch's own.
    this.file = local.create(input, false);
    this.writer = SequenceFile.createWriter(conf, SequenceFile.Writer.stream(file),
        SequenceFile.Writer.keyClass(BytesWritable.class),
        SequenceFile.Writer.valueClass(NullWritable.class),
        SequenceFile.Writer.compression(SequenceFile.CompressionType.NONE));
  }

  void append(byte[] entry, int offset, int length) throws IOException {
    key.set(entry, offset, length);
    writer.append(key, NullWritable.get());
  }

  SequenceFile.Sorter.RawKeyValueIterator sort(RawComparator<BytesWritable> order)
      throws IOException {
    closeWriter();
    SequenceFile.Sorter sorter = new SequenceFile.Sorter(local, order,
        BytesWritable.class, NullWritable.class, conf);
    sorter.setMemory(SORT_MEMORY);
    sorter.setFactor(MERGE_FACTOR);
    return sorter.sortAndIterate(new Path[] {input}, new Path(dir, "runs"), true);
  }

  /**
   * The entries in the order appended, each a fresh array, read through the local file system's
   * checksums; {@code next} throws {@link UncheckedIOException} if the file cannot be read.
   */
  Iterator<byte[]> inOrder() throws IOException {
    closeWriter();
    reader = new SequenceFile.Reader(conf,
        SequenceFile.Reader.stream(local.open(input)),
        SequenceFile.Reader.length(local.getFileStatus(input).getLen()));
    return new Iterator<byte[]>() {
      private final BytesWritable read = new BytesWritable();
      private byte[] next;
      private boolean done;

      @Override
      public boolean hasNext() {
        if (next == null && !done) {
          try {
            if (reader.next(read)) {
              next = read.copyBytes();
            } else {
              done = true;
            }
          } catch (IOException e) {
            throw new UncheckedIOException("cannot read the writer's scratch files: "
                + e.getMessage(), e);
          }
        }
        return next != null;
      }

      @Override
      public byte[] next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        byte[] result = next;
        next = null;
        return result;
      }
    };
  }

  @Override
  public void close() throws IOException {
    try (SequenceFile.Reader open = reader) {
      closeWriter();
    } finally {
      reader = null;
      local.delete(dir, true);
    }
  }

  /** The writer does not own a stream it was given: both are closed. */
  private void closeWriter() throws IOException {
    try (FSDataOutputStream out = file) {
      if (writer != null) {
        writer.close();
      }
    } finally {
      writer = null;
      file = null;
    }
  }
}
