package org.hpf.internal.build;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/** Reads the splits the driver cut from its source listing, and each split's records. */
public final class SourceInputFormat extends InputFormat<ListedSource, NullWritable> {

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    Path splits = new Path(JobSettings.staging(conf), "splits");
    return new ArrayList<>(SourceListing.readSplits(splits.getFileSystem(conf), splits));
  }

  @Override
  public RecordReader<ListedSource, NullWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new Reader();
  }

  /** The split's records, in listing order. */
  private static final class Reader extends RecordReader<ListedSource, NullWritable> {
    private SequenceFile.Reader listing;
    private SourceSplit split;
    private ListedSource current;
    private long read;

    @Override
    public void initialize(InputSplit input, TaskAttemptContext context) throws IOException {
      split = (SourceSplit) input;
      listing = new SequenceFile.Reader(context.getConfiguration(),
          SequenceFile.Reader.file(new Path(split.listing())));
      listing.seek(split.start());
    }

    @Override
    public boolean nextKeyValue() throws IOException {
      if (read == split.files()) {
        return false;
      }
      ListedSource next = new ListedSource();
      if (!listing.next(next)) {
        throw new IOException("the source listing " + split.listing() + " ends after " + read
            + " of the split's " + split.files() + " files");
      }
      current = next;
      read++;
      return true;
    }

    @Override
    public ListedSource getCurrentKey() {
      return current;
    }

    @Override
    public NullWritable getCurrentValue() {
      return NullWritable.get();
    }

    @Override
    public float getProgress() {
      return split.files() == 0 ? 1 : (float) read / split.files();
    }

    @Override
    public void close() throws IOException {
      if (listing != null) {
        listing.close();
      }
    }
  }
}
