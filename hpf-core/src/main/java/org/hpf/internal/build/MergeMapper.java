package org.hpf.internal.build;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Mapper;
import org.hpf.internal.write.MergeQueue;
import org.hpf.internal.write.Source;
import org.hpf.internal.write.StagedMerge;
import org.hpf.internal.write.WriterOptions;
import org.hpf.internal.write.WriterPool;

/**
 * A map task: merges its split's files into part files with {@link JobSettings#MAP_THREADS}
 * threads (reading small files is latency-bound), through a {@link StagedMerge}, then seals the
 * work ({@link ShareSeal}). The parts go into its attempt's work directory, from which the
 * committer moves them into the archive; on an object store, which cannot move them, straight
 * into the archive directory, with ids of the slot the attempt claimed ({@link AttemptSlots}).
 * Emits nothing.
 */
public class MergeMapper extends Mapper<ListedSource, NullWritable, NullWritable, NullWritable> {

  /** Counters the job reports. */
  public enum Counter { FILES_MERGED, BYTES_MERGED }

  @Override
  public void run(Context context) throws IOException, InterruptedException {
    try {
      merge(context);
    } catch (IOException | RuntimeException | Error e) {
      // Where the driver finds it: the local job runner keeps no task diagnostics.
      JobFailure.record(context.getConfiguration(), context.getTaskAttemptID(), e);
      throw e;
    }
  }

  private void merge(Context context) throws IOException, InterruptedException {
    Configuration conf = context.getConfiguration();
    SourceSplit split = (SourceSplit) context.getInputSplit();
    AttemptOutput output = AttemptOutput.open(conf, context.getTaskAttemptID(), split);
    WriterOptions options = output.options();
    int threads = options.settings().threads();
    WriterPool pool = WriterPool.start("hpf-merge", threads);
    // Closed in reverse: every member handed out is merged (or failed) before an attempt that
    // failed drops its parts, and no merge thread outlives the attempt.
    try (pool; StagedMerge merge = output.merge(); MergeQueue queue = new MergeQueue(pool,
        threads)) {
      long listed = 0;
      while (!queue.failed() && context.nextKeyValue()) {
        Source source = context.getCurrentKey().toSource(conf);
        int access = context.getCurrentKey().access();
        queue.submit(() -> {
          merge.add(source, access);
          context.getCounter(Counter.FILES_MERGED).increment(1);
          context.getCounter(Counter.BYTES_MERGED).increment(source.length());
        });
        listed++;
        merged(context, listed);
      }
      queue.finish();
      output.seal(merge.finish());
    }
  }

  /**
   * Called after each source is handed to a merge thread, with how many were; a place for
   * tests to stop an attempt midway.
   */
  protected void merged(Context context, long sources) throws IOException {
    context.progress();
  }
}
