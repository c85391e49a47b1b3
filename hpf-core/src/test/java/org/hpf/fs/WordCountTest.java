package org.hpf.fs;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.WordCount;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hadoop's stock WordCount (hadoop-mapreduce-examples: its mapper, combiner and reducer, with
 * TextInputFormat) over a directory inside an archive gives the counts it gives over the files.
 */
@Tag("slow")
class WordCountTest {
  @TempDir java.nio.file.Path tmp;

  @Test
  void sameCountsAsOverThePlainFiles() throws Exception {
    SourceTree tree = new SourceTree(tmp.resolve("src"), 5, 40);
    Configuration conf = LocalJobs.configure(new Configuration());
    Path archive = new Path(tmp.resolve("words.hpf").toUri());
    // Small parts and blocks: the input spans several parts.
    ArchiveCreator.create(conf, archive, List.of(new Path(tree.root.toUri())),
        WriterOptions.builder().settings(s -> s.threads(2)).layout(l -> l.withPartSize(16 << 10))
            .build());

    List<String> plain = wordCount(conf, new Path(tree.root.resolve("text").toUri()),
        tmp.resolve("out-plain"));
    List<String> archived = wordCount(conf,
        new Path("hpf://file-" + archive.toUri().getPath() + "/text"), tmp.resolve("out-hpf"));
    assertFalse(plain.isEmpty());
    assertTrue(plain.stream().anyMatch(l -> l.startsWith("hpf\t")), plain.toString());
    assertEquals(plain, archived);
  }

  private static List<String> wordCount(Configuration conf, Path input,
      java.nio.file.Path output) throws Exception {
    Job job = Job.getInstance(conf, "word count " + input);
    job.setJarByClass(WordCount.class);
    job.setMapperClass(WordCount.TokenizerMapper.class);
    job.setCombinerClass(WordCount.IntSumReducer.class);
    job.setReducerClass(WordCount.IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    FileInputFormat.addInputPath(job, input);
    FileInputFormat.setInputDirRecursive(job, true);
    FileOutputFormat.setOutputPath(job, new Path(output.toUri()));
    assertTrue(job.waitForCompletion(false), "job over " + input + " failed");
    return LocalJobs.outputLines(output);
  }
}
