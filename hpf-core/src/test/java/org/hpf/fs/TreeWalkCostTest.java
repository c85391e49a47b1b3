package org.hpf.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.apache.hadoop.mapreduce.lib.input.CombineTextInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.ReadCountingFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's planning over {@code hpf://} walks the tree: FileInputFormat lists every directory
 * on its own. With a directory per few members (logs by app, day and host), each listing must
 * cost its own names, not a read of the names segments from their start, nor an index lookup.
 */
class TreeWalkCostTest {
  private static final int FILES = 2000;

  @TempDir java.nio.file.Path tmp;

  @Test
  void aRecursiveListingReadsTheNamesAboutOnce() throws Exception {
    java.nio.file.Path src = tmp.resolve("src");
    SourceTree.write(src, FILES, i -> String.format(Locale.ROOT,
        "application-%02d/2026-11-%02d/host-%02d.example.com/log-%05d.txt", i % 8,
        1 + (i / 8) % 28, (i / 224) % 13, i),
        i -> ("line " + i + "\n").getBytes(StandardCharsets.UTF_8));
    java.nio.file.Path archive = tmp.resolve("logs.hpf");
    ArchiveCreator.create(new Configuration(), new Path(archive.toUri()),
        List.of(new Path(src.toUri())), WriterOptions.builder().build());
    long namesLength = 0;
    try (var names = Files.list(archive)) {
      for (java.nio.file.Path file : names.filter(f -> f.getFileName().toString()
          .startsWith("names-")).toList()) {
        namesLength += Files.size(file);
      }
    }

    Configuration conf = LocalJobs.configure(ReadCountingFileSystem.conf(false));
    Job job = Job.getInstance(conf);
    FileInputFormat.setInputDirRecursive(job, true);
    FileInputFormat.addInputPath(job, new Path("hpf://countfs-" + archive + "/"));
    ReadCountingFileSystem.reset();
    List<InputSplit> splits = new CombineTextInputFormat().getSplits(job);
    long members = 0;
    for (InputSplit split : splits) {
      members += ((CombineFileSplit) split).getNumPaths();
    }
    assertEquals(FILES, members);
    // About 2,300 directories: reading the names up to each one read the segment ~2,000 times.
    assertTrue(ReadCountingFileSystem.namesBytes() <= 2 * namesLength,
        ReadCountingFileSystem.namesBytes() + " bytes of names read in "
            + ReadCountingFileSystem.namesReads() + " reads, for names segments of "
            + namesLength + " bytes");
    // Whether a directory is also a file is told from the same names, not by an index lookup
    // of each directory's name.
    assertTrue(ReadCountingFileSystem.indexReads() <= 5,
        ReadCountingFileSystem.indexReads() + " index reads");
    // Each names segment is opened once, not for each listing (two NameNode calls on HDFS).
    assertTrue(ReadCountingFileSystem.namesOpens() <= 2,
        ReadCountingFileSystem.namesOpens() + " opens of names segments");
  }
}
