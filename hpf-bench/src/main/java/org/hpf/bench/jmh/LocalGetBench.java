package org.hpf.bench.jmh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.hpf.bench.DatasetGenerator;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A whole {@code HpfReader.get} of a random member from an archive on the local file system:
 * models the production read path end to end (hash, directory, bucket function, one positioned
 * read of the record, one of the entry, checks, LZ4 decompression), without HDFS's network and
 * DataNode costs. The archive holds {@code files} log-like files of 1 to 16 KiB.
 */
public class LocalGetBench extends JmhBase {
  @Param({"10000"})
  public int files;

  Path dir;
  HpfReader reader;
  List<String> names;
  int next;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    dir = Files.createTempDirectory("hpf-jmh");
    Path sources = dir.resolve("sources");
    names = new DatasetGenerator(7, 1024, 16 * 1024, DatasetGenerator.SizeDistribution.PARETO,
        0.9, DatasetGenerator.Content.TEXT).write(sources, files);
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path(dir.resolve("a.hpf").toUri());
    ArchiveCreator.create(conf, archive, List.of(new org.apache.hadoop.fs.Path(sources.toUri())),
        WriterOptions.defaults());
    reader = HpfReader.open(conf, archive);
  }

  @Benchmark
  public byte[] get() throws IOException {
    next = (next * 1_103_515_245 + 12_345) & Integer.MAX_VALUE;
    return reader.get(names.get(next % names.size()));
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    reader.close();
    org.hpf.bench.BenchFiles.deleteTree(dir);
  }
}
