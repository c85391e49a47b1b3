package org.hpf.internal.build;

import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * The archive job's output: map tasks write parts themselves (see {@link MergeMapper}); this
 * format contributes the {@link StagedCommitter} that turns committed tasks into one generation.
 */
public final class StagedOutputFormat extends OutputFormat<NullWritable, NullWritable> {

  @Override
  public RecordWriter<NullWritable, NullWritable> getRecordWriter(TaskAttemptContext context) {
    return new RecordWriter<>() {
      @Override
      public void write(NullWritable key, NullWritable value) {
        throw new UnsupportedOperationException("the archive job's tasks emit no records");
      }

      @Override
      public void close(TaskAttemptContext context) {}
    };
  }

  @Override
  public void checkOutputSpecs(JobContext context) {
    // the driver has checked and locked the archive
  }

  @Override
  public OutputCommitter getOutputCommitter(TaskAttemptContext context) {
    return new StagedCommitter();
  }
}
