package org.hpf.mapreduce;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.hpf.CorruptArchiveException;
import org.hpf.fs.LocalJobs;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.ReadCountingFileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** HpfInputFormat: splits grouped by part and block, each live member read exactly once. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HpfInputFormatTest {
  private static final int FILES = 2000;
  private static final long BLOCK = 128 << 10;

  @TempDir static java.nio.file.Path shared;
  @TempDir java.nio.file.Path tmp;
  private final Map<String, byte[]> files = new TreeMap<>();
  private Configuration conf;
  private Path archive;

  @BeforeAll
  void createArchive() throws IOException {
    java.nio.file.Path src = shared.resolve("src");
    for (int i = 0; i < FILES; i++) {
      String name = "logs/app-" + (i % 5) + "/host-" + (i % 17) + "/log-" + i + ".txt";
      byte[] bytes = ("line of log " + i + " " + "x".repeat(i % 300) + "\n")
          .getBytes(StandardCharsets.UTF_8);
      java.nio.file.Path file = src.resolve(name);
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
      files.put(name, bytes);
    }
    conf = LocalJobs.configure(new Configuration());
    archive = new Path(shared.resolve("logs.hpf").toUri());
    ArchiveCreator.create(conf, archive, List.of(new Path(src.toUri())),
        WriterOptions.builder().settings(s -> s.threads(2)).layout(l -> l.withPartSize(300 << 10)
            .withBlockSize(BLOCK).withBucketCapacity(1000)).build());
  }

  /** Reads every split with the record reader: name to bytes (failing on a duplicate). */
  private Map<String, byte[]> readAll(List<InputSplit> splits) throws Exception {
    Map<String, byte[]> read = new HashMap<>();
    TaskAttemptContext context = new TaskAttemptContextImpl(conf, new TaskAttemptID());
    for (InputSplit split : splits) {
      try (RecordReader<Text, BytesWritable> reader =
          new HpfInputFormat().createRecordReader(split, context)) {
        reader.initialize(split, context);
        while (reader.nextKeyValue()) {
          String name = reader.getCurrentKey().toString();
          byte[] bytes = reader.getCurrentValue().copyBytes();
          assertNull(read.put(name, bytes), "read twice: " + name);
        }
        assertEquals(1f, reader.getProgress());
      }
    }
    return read;
  }

  private List<InputSplit> splits(String... inputs) throws IOException {
    Job job = Job.getInstance(conf);
    for (String input : inputs) {
      HpfInputFormat.addInputPath(job, new Path(input));
    }
    return new HpfInputFormat().getSplits(job);
  }

  @Test
  void wholeArchiveInAFewSplits() throws Exception {
    List<InputSplit> splits = splits(archive.toString());
    long total = files.values().stream().mapToLong(b -> b.length).sum();
    // One split per block of archived data (entries add ~60 bytes to each file).
    assertTrue(splits.size() <= 2 + (total + 60L * FILES) / BLOCK * 2, splits.toString());
    assertTrue(splits.size() < FILES / 100, splits.toString());
    long members = 0;
    for (InputSplit split : splits) {
      HpfInputSplit s = (HpfInputSplit) split;
      assertTrue(s.end() - s.start() <= BLOCK + 1000, s.toString());
      assertTrue(s.getLocations().length > 0, s.toString());
      members += s.members();
    }
    assertEquals(FILES, members);
    Map<String, byte[]> read = readAll(splits);
    assertEquals(files.keySet(), new TreeSet<>(read.keySet()));
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      assertArrayEquals(e.getValue(), read.get(e.getKey()), e.getKey());
    }
  }

  @Test
  void aScanReadsItsRangeInLargeReadsNotAMemberAtATime() throws Exception {
    Configuration counting = ReadCountingFileSystem.conf(false);
    Path countedArchive = ReadCountingFileSystem.path(shared.resolve("logs.hpf"));
    try (HpfReader reader = HpfReader.open(counting, countedArchive)) {
      assertTrue(reader.manifest().parts().stream().allMatch(Manifest.PartInfo::allLive),
          "a new archive's parts are wholly live");
    }
    Configuration before = conf;
    conf = LocalJobs.configure(counting);
    try {
      List<InputSplit> splits = splits(countedArchive.toString());
      ReadCountingFileSystem.reset();
      Map<String, byte[]> read = readAll(splits);
      assertEquals(FILES, read.size());
      // One read of up to a MiB per split here (each is at most a block of 128 KiB), where
      // reading member by member made a read of each of the 2,000.
      assertTrue(ReadCountingFileSystem.positionedReads() <= 2L * splits.size(),
          ReadCountingFileSystem.positionedReads() + " reads for " + splits.size() + " splits");
    } finally {
      conf = before;
    }
  }

  @Test
  void aDamagedMemberFailsTheScanAndNamesIt() throws Exception {
    java.nio.file.Path copy = tmp.resolve("damaged.hpf");
    org.apache.commons.io.FileUtils.copyDirectory(shared.resolve("logs.hpf").toFile(),
        copy.toFile());
    String victim = "logs/app-1/host-6/log-6.txt";
    IndexRecord record;
    try (HpfReader reader = HpfReader.open(conf, new Path(copy.toUri()))) {
      record = reader.record(victim);
    }
    // The last byte of the member's stored bytes, just before its content checksum.
    java.nio.file.Path part = copy.resolve(ArchiveLayout.part(record.part()));
    try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(part,
        java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
      long at = record.offset() + record.entryLength() - 5;
      java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
      channel.read(b, at);
      b.put(0, (byte) (b.get(0) ^ 0x5a)).rewind();
      channel.write(b, at);
    }
    CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
        () -> readAll(splits("hpf://file-" + copy + "/logs/app-1")));
    assertTrue(e.getMessage().contains(victim), e.getMessage());
  }

  @Test
  void directoryAndMemberInputsSkipDeadEntries() throws Exception {
    List<String> deleted = new ArrayList<>();
    for (String name : files.keySet()) {
      if (name.startsWith("logs/app-2/") && name.hashCode() % 3 == 0) {
        deleted.add(name);
      }
    }
    // A copy of the archive (its files name nothing outside it) to delete from.
    java.nio.file.Path copy = tmp.resolve("copy.hpf");
    org.apache.commons.io.FileUtils.copyDirectory(shared.resolve("logs.hpf").toFile(),
        copy.toFile());
    Path changed = new Path("file", null, copy.toString());
    try (ArchiveWriter writer = ArchiveWriter.open(conf, changed, WriterOptions.defaults())) {
      writer.delete(deleted);
    }
    String hpf = "hpf://file-" + copy;
    String single = "logs/app-3/host-1/log-18.txt";
    Map<String, byte[]> read = readAll(splits(hpf + "/logs/app-2", hpf + "/" + single));
    TreeSet<String> expected = new TreeSet<>();
    for (String name : files.keySet()) {
      if (name.startsWith("logs/app-2/") && !deleted.contains(name)) {
        expected.add(name);
      }
    }
    expected.add(single);
    assertEquals(expected, new TreeSet<>(read.keySet()));
    assertThrows(java.io.FileNotFoundException.class, () -> splits(hpf + "/logs/app-9"));
  }

  /** Emits "name TAB length TAB crc32c" for each member. */
  public static final class ChecksumMapper
      extends Mapper<Text, BytesWritable, Text, NullWritable> {
    @Override
    protected void map(Text name, BytesWritable bytes, Context context)
        throws IOException, InterruptedException {
      CRC32C crc = new CRC32C();
      crc.update(bytes.getBytes(), 0, bytes.getLength());
      context.write(new Text(name + "\t" + bytes.getLength() + "\t"
          + Long.toHexString(crc.getValue())), NullWritable.get());
    }
  }

  @Test
  @Tag("slow")
  void mapReduceJobOnTheLocalRunner() throws Exception {
    Job job = Job.getInstance(conf, "hpf input format");
    job.setJarByClass(HpfInputFormatTest.class);
    job.setInputFormatClass(HpfInputFormat.class);
    HpfInputFormat.addInputPath(job, archive);
    job.setMapperClass(ChecksumMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
    java.nio.file.Path output = tmp.resolve("out");
    FileOutputFormat.setOutputPath(job, new Path(output.toUri()));
    assertTrue(job.waitForCompletion(false));
    List<String> expected = new ArrayList<>();
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      CRC32C crc = new CRC32C();
      crc.update(e.getValue());
      expected.add(e.getKey() + "\t" + e.getValue().length + "\t"
          + Long.toHexString(crc.getValue()));
    }
    List<String> got = LocalJobs.outputLines(output);
    got.sort(null);
    assertEquals(expected, got);
    assertEquals(FILES, job.getCounters()
        .findCounter(org.apache.hadoop.mapreduce.TaskCounter.MAP_INPUT_RECORDS).getValue());
  }
}
