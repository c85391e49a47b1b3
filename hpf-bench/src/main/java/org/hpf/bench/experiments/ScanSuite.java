package org.hpf.bench.experiments;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.SequenceFile.CompressionType;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.CombineTextInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.hpf.bench.BenchCluster;
import org.hpf.bench.DatasetGenerator;
import org.hpf.bench.DatasetGenerator.Dataset;
import org.hpf.bench.systems.HarArchive;
import org.hpf.bench.systems.HdfsFiles;
import org.hpf.bench.systems.HpfArchive;
import org.hpf.bench.systems.SequenceFiles;
import org.hpf.internal.write.WriterOptions;
import org.hpf.mapreduce.HpfInputFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Scans: the same MapReduce job, reading every byte of many small text files and counting their
 * lines and bytes, over the files as plain HDFS files ({@code TextInputFormat}, and
 * {@code CombineTextInputFormat}, the usual small-files fix), in a SequenceFile, in a HAR and in
 * an hpf archive ({@code HpfInputFormat}, and {@code hpf://} paths under
 * {@code CombineTextInputFormat}). MapReduce's local job runner runs every job in this process
 * against the cluster, so the figures are the input path's, not a scheduler's. Each job's time,
 * the block reads the DataNodes served and their bytes, and the NameNode calls of the client.
 */
@Command(name = "scan", mixinStandardHelpOptions = true,
    description = "A job counting the lines and bytes of many small files, over plain files,"
        + " a SequenceFile, a HAR and an hpf archive (local job runner).")
public final class ScanSuite extends Experiment {
  @Option(names = "--files", defaultValue = "100000",
      description = "Small text files (default: ${DEFAULT-VALUE}).")
  public int files = 100_000;

  @Option(names = "--min-size", defaultValue = "1024",
      description = "Smallest file in bytes (default: ${DEFAULT-VALUE}).")
  public int minSize = 1024;

  @Option(names = "--max-size", defaultValue = "16384",
      description = "Largest file in bytes; sizes are log-uniform (default: ${DEFAULT-VALUE}).")
  public int maxSize = 16 * 1024;

  @Option(names = "--split-mib", defaultValue = "128",
      description = "Largest split of the combining input formats (default: ${DEFAULT-VALUE}).")
  public int splitMiB = 128;

  @Option(names = "--files-per-job", defaultValue = "10000",
      description = "Most files of one TextInputFormat job (a map task each); more files are"
          + " read by several jobs in turn (default: ${DEFAULT-VALUE}).")
  public int filesPerJob = 10_000;

  /** What a scan counts; every scan must count the same. */
  public enum Count { LINES, BYTES }

  /**
   * Files per directory of the upload, as a day's directory of logs (fewer when a job reads
   * fewer: jobs read whole directories).
   */
  private static final int BATCH = 1000;

  private static final String LOCAL_FLOOR = "local files (file://), CombineTextInputFormat";


  @Override
  public String name() {
    return "scan";
  }

  @Override
  public ExperimentResult run(ExperimentContext context) throws Exception {
    if (filesPerJob < 1) {
      throw new IllegalArgumentException("--files-per-job must be at least 1: " + filesPerJob);
    }
    BenchCluster cluster = context.cluster(context.options.cluster.dataNodes);
    ExperimentResult r = begin(context, cluster, "Scan of " + String.format(Locale.ROOT,
        "%,d", files) + " small files: count lines and bytes", "files", "seconds", false,
        Map.of("files", files, "minSize", minSize, "maxSize", maxSize, "splitMiB", splitMiB));
    Dataset data = new DatasetGenerator(context.options.cluster.seed, minSize, maxSize,
        DatasetGenerator.SizeDistribution.LOG_UNIFORM, 1, DatasetGenerator.Content.TEXT)
        .writeBatches(context.local("scan-" + files), files, Math.min(BATCH, filesPerJob));
    Path base = context.dir(cluster, "scan");
    short replication = 1;
    long blockSize = cluster.conf().getLongBytes("dfs.blocksize", 128L << 20);
    File jobs = context.local("scan-jobs").toFile();

    HdfsFiles plain = new HdfsFiles(cluster.fs(), replication, blockSize, 8);
    Path plainDir = new Path(base, "files");
    store(context, "plain files", plain.create(data, files, plainDir));
    Path seq = new Path(base, "data.seq");
    store(context, "SequenceFile", SequenceFiles.sequenceFile(cluster.conf(),
        CompressionType.NONE, org.apache.hadoop.io.compress.DefaultCodec.class, replication,
        blockSize).create(data, files, seq));
    HarArchive har = new HarArchive(cluster.conf(), plain, replication, jobs);
    Path harDir = new Path(base, "har");
    store(context, "HAR", har.create(data, files, harDir));
    Path hpf = new Path(base, "data.hpf");
    store(context, "hpf", new HpfArchive(cluster.conf(), WriterOptions.builder()
        .layout(l -> l.withReplication(replication)).build()).create(data, files, hpf));

    Configuration conf = org.hpf.bench.LocalRunner.configure(cluster.conf(), jobs, 2);
    FileSystem fs = cluster.fs();
    List<Scan> scans = List.of(
        new Scan("plain files, TextInputFormat", TextInputFormat.class, LineMapper.class,
            directoriesInJobs(fs, fs.makeQualified(plainDir))),
        Scan.of("plain files, CombineTextInputFormat", CombineTextInputFormat.class,
            LineMapper.class, fs.makeQualified(plainDir)),
        Scan.of("SequenceFile", SequenceFileInputFormat.class, MemberMapper.class,
            fs.makeQualified(seq)),
        Scan.of("HAR (har://), CombineTextInputFormat", CombineTextInputFormat.class,
            LineMapper.class, new Path(HarArchive.harUri(fs.makeQualified(har.storeOf(harDir))))),
        Scan.of("hpf, HpfInputFormat", HpfInputFormat.class, MemberMapper.class,
            fs.makeQualified(hpf)),
        Scan.of("hpf (hpf://), CombineTextInputFormat", CombineTextInputFormat.class,
            LineMapper.class, hpfPath(fs.makeQualified(hpf))),
        // The floor of any file system under this input format: the same files on the local
        // disk, where an open costs no round trip, so what remains is the framework's per file.
        Scan.of(LOCAL_FLOOR, CombineTextInputFormat.class, LineMapper.class,
            new Path(data.root().toUri())));
    Map<String, Long> expected = null;
    for (Scan scan : scans) {
      Map<String, Object> details = run(context, cluster, conf, scan);
      Map<String, Long> counted = Map.of("lines", (Long) details.get("lines"), "bytes",
          (Long) details.get("bytes"));
      if (expected == null) {
        expected = counted;
      } else if (!expected.equals(counted)) {
        throw new IllegalStateException(scan.name + " counted " + counted + " where the first"
            + " scan counted " + expected);
      }
      r.add("scan", scan.name, files, String.format(Locale.ROOT, "%,d files", files),
          List.of((Long) details.get("millis") / 1000.0), details);
    }
    double textInput = r.point("scan", scans.get(0).name, files).value();
    double sequence = r.point("scan", "SequenceFile", files).value();
    double hpfScan = r.point("scan", "hpf, HpfInputFormat", files).value();
    r.compare("TextInputFormat over the plain files ÷ HpfInputFormat (target: at least 10)",
        null, textInput / hpfScan, "not in the studies");
    r.compare("SequenceFile ÷ HpfInputFormat (target: at least 1)", null, sequence / hpfScan,
        "not in the studies");
    double hpfCombined = r.point("scan", "hpf (hpf://), CombineTextInputFormat", files).value();
    r.compare("CombineTextInputFormat over hpf:// ÷ HpfInputFormat (target: at most 3)", null,
        hpfCombined / hpfScan, "not in the studies");
    r.compare("CombineTextInputFormat over hpf:// ÷ over the local files (the framework's"
        + " floor)", null, hpfCombined / r.point("scan", LOCAL_FLOOR, files).value(),
        "not in the studies");
    r.notes.add("Every job runs on MapReduce's local job runner in this process (2 map slots),"
        + " against the cluster: the time is the input path's, not a scheduler's. HAR is read"
        + " through CombineTextInputFormat: TextInputFormat would make a task of each of its"
        + " files, as it does of the plain files. The local files are the sources on this"
        + " machine's disk: the same job's cost with no storage round trip, its framework's"
        + " floor.");
    r.notes.add("Block reads and bytes are the DataNodes' own metrics (BlocksRead, BytesRead);"
        + " NameNode calls are the client's read operations on the cluster's file system.");
    cluster.fs().delete(base, true);
    return r;
  }

  /**
   * Input read through one input format, with the mapper its records need: one job per list of
   * {@code jobs}, one after the other, their times and counts added.
   */
  @SuppressWarnings("rawtypes")
  private record Scan(String name, Class<? extends InputFormat> format,
      Class<? extends Mapper<?, ?, ?, ?>> mapper, List<List<Path>> jobs) {
    static Scan of(String name, Class<? extends InputFormat> format,
        Class<? extends Mapper<?, ?, ?, ?>> mapper, Path input) {
      return new Scan(name, format, mapper, List.of(List.of(input)));
    }
  }

  /**
   * The plain files' directories, in jobs of at most {@code filesPerJob} files: a job of
   * {@code TextInputFormat} has a map task per file, and the local job runner makes every task
   * (with its own copy of the job's configuration) before it runs one, so a job over 10^5 files
   * does not fit a heap of a few GiB. Several jobs, run one after the other, read the same files
   * with the same tasks.
   */
  private List<List<Path>> directoriesInJobs(FileSystem fs, Path plainDir)
      throws IOException {
    List<List<Path>> jobs = new ArrayList<>();
    List<Path> job = new ArrayList<>();
    long filesInJob = 0;
    org.apache.hadoop.fs.FileStatus[] dirs = fs.listStatus(plainDir);
    java.util.Arrays.sort(dirs);
    for (org.apache.hadoop.fs.FileStatus dir : dirs) {
      long count = dir.isDirectory() ? fs.getContentSummary(dir.getPath()).getFileCount() : 1;
      if (!job.isEmpty() && filesInJob + count > filesPerJob) {
        jobs.add(job);
        job = new ArrayList<>();
        filesInJob = 0;
      }
      job.add(dir.getPath());
      filesInJob += count;
    }
    if (!job.isEmpty()) {
      jobs.add(job);
    }
    return jobs;
  }

  private void store(ExperimentContext context, String what,
      org.hpf.bench.systems.BenchSystem.Creation creation) {
    context.log.printf(Locale.ROOT, "  stored as %-14s in %.1f s%n", what,
        creation.millis() / 1000.0);
  }

  private Map<String, Object> run(ExperimentContext context, BenchCluster cluster,
      Configuration conf, Scan scan) throws Exception {
    Map<String, Object> total = new LinkedHashMap<>();
    for (List<Path> inputs : scan.jobs) {
      Map<String, Object> one = runJob(cluster, conf, scan, inputs);
      one.forEach((key, value) -> total.merge(key, value,
          (a, b) -> ((Number) a).longValue() + ((Number) b).longValue()));
    }
    total.put("jobs", scan.jobs.size());
    context.log.printf(Locale.ROOT, "  %-40s %7.1f s  %,6d maps  %,9d block reads  %,14d"
        + " bytes read  %,9d NameNode calls%s%n", scan.name, (Long) total.get("millis") / 1000.0,
        total.get("maps"), total.get("dataNodeBlockReads"), total.get("dataNodeBytesRead"),
        total.get("nameNodeReadCalls"), scan.jobs.size() == 1 ? ""
            : String.format(Locale.ROOT, " (%d jobs, one after the other)", scan.jobs.size()));
    return total;
  }

  private Map<String, Object> runJob(BenchCluster cluster, Configuration conf, Scan scan,
      List<Path> inputs) throws Exception {
    Job job = Job.getInstance(new Configuration(conf), "scan: " + scan.name);
    job.setJarByClass(ScanSuite.class);
    job.setInputFormatClass(scan.format);
    job.setMapperClass(scan.mapper);
    job.setNumReduceTasks(0);
    job.setOutputFormatClass(NullOutputFormat.class);
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(NullWritable.class);
    FileInputFormat.setInputDirRecursive(job, true);
    for (Path input : inputs) {
      FileInputFormat.addInputPath(job, input);
    }
    CombineTextInputFormat.setMaxInputSplitSize(job, (long) splitMiB << 20);
    // The map tasks the job will run: its input format's splits, planned once before the timing.
    int maps = org.apache.hadoop.util.ReflectionUtils.newInstance(scan.format,
        job.getConfiguration()).getSplits(job).size();
    long blocksBefore = cluster.dataNodeCounter("blocksRead");
    long bytesBefore = cluster.dataNodeCounter("bytesRead");
    FileSystem.Statistics client = FileSystem.getStatistics(cluster.uri().getScheme(),
        cluster.fs().getClass());
    long callsBefore = client.getReadOps();
    long start = System.nanoTime();
    if (!job.waitForCompletion(false)) {
      throw new IOException("scan job failed: " + scan.name);
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("millis", millis);
    details.put("lines", job.getCounters().findCounter(Count.LINES).getValue());
    details.put("bytes", job.getCounters().findCounter(Count.BYTES).getValue());
    details.put("maps", maps);
    details.put("dataNodeBlockReads", cluster.dataNodeCounter("blocksRead") - blocksBefore);
    details.put("dataNodeBytesRead", cluster.dataNodeCounter("bytesRead") - bytesBefore);
    details.put("nameNodeReadCalls", client.getReadOps() - callsBefore);
    return details;
  }

  /** The {@code hpf://} path of the root of an archive on the cluster. */
  static Path hpfPath(Path archive) {
    URI under = archive.toUri();
    return new Path("hpf://" + under.getScheme() + "-" + under.getAuthority()
        + under.getPath() + "/");
  }

  /** Counts the lines of text records and their bytes, line terminators left out. */
  public static final class LineMapper
      extends Mapper<LongWritable, Text, NullWritable, NullWritable> {
    @Override
    protected void map(LongWritable offset, Text line, Context context) {
      context.getCounter(Count.LINES).increment(1);
      context.getCounter(Count.BYTES).increment(line.getLength());
    }
  }

  /** Counts the lines of whole members as a line reader would split them, and their bytes. */
  public static final class MemberMapper
      extends Mapper<Text, BytesWritable, NullWritable, NullWritable> {
    @Override
    protected void map(Text name, BytesWritable member, Context context) {
      byte[] bytes = member.getBytes();
      int length = member.getLength();
      long lines = 0;
      long terminators = 0;
      int lineStart = 0;
      for (int i = 0; i < length; i++) {
        if (bytes[i] == '\n') {
          lines++;
          terminators += i > lineStart && bytes[i - 1] == '\r' ? 2 : 1;
          lineStart = i + 1;
        }
      }
      if (lineStart < length) {
        lines++; // a last line without a terminator
      }
      context.getCounter(Count.LINES).increment(lines);
      context.getCounter(Count.BYTES).increment(length - terminators);
    }
  }
}
