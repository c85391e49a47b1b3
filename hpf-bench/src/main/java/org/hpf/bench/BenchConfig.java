package org.hpf.bench;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.io.SequenceFile.CompressionType;
import org.hpf.Compression;
import org.hpf.bench.DatasetGenerator.Content;
import org.hpf.bench.DatasetGenerator.SizeDistribution;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Every setting of a run; picocli fills it from the command line, tests set it directly. */
public final class BenchConfig {
  @Mixin
  public ClusterOptions cluster = new ClusterOptions(new File("results"));

  @Mixin
  public BlockOptions blocks = new BlockOptions();

  @Option(names = "--base-dir", paramLabel = "PATH", defaultValue = "/hpf-bench",
      description = "Directory on the file system for all stores (default: ${DEFAULT-VALUE}).")
  public String baseDir = "/hpf-bench";

  @Option(names = "--reps", defaultValue = "5",
      description = "Repetitions of the gets (default: ${DEFAULT-VALUE}).")
  public int reps = 5;

  @Option(names = "--files", split = ",", paramLabel = "N[,N...]",
      description = "Dataset sizes for the creation suite; the largest is used by every other"
          + " suite (default: ${DEFAULT-VALUE}).", defaultValue = "100000")
  public List<Integer> files = new ArrayList<>(List.of(100_000));

  @Option(names = "--min-size", defaultValue = "1024", paramLabel = "BYTES")
  public int minSize = 1024;

  @Option(names = "--max-size", defaultValue = "10485760", paramLabel = "BYTES")
  public int maxSize = 10 << 20;

  @Option(names = "--size-dist", defaultValue = "PARETO",
      description = "File size distribution: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  public SizeDistribution sizeDistribution = SizeDistribution.PARETO;

  @Option(names = "--pareto-alpha", defaultValue = "0.9",
      description = "Pareto shape; 0.9 gives a mean near 14 KiB for 1 KiB..10 MiB"
          + " (default: ${DEFAULT-VALUE}).")
  public double paretoAlpha = 0.9;

  @Option(names = "--content", defaultValue = "TEXT",
      description = "File content: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  public Content content = Content.TEXT;

  @Option(names = "--systems", split = ",", defaultValue = "HDFS,HPF,HAR,MapFile,SequenceFile",
      description = "Systems to run (default: ${DEFAULT-VALUE}); HAR needs HDFS.")
  public List<String> systems = new ArrayList<>(List.of("HDFS", "HPF", "HAR", "MapFile",
      "SequenceFile"));

  @Option(names = "--suites", split = ",",
      defaultValue = "creation,access,namenode,size,throughput",
      description = "Suites to run after creating the stores (default: ${DEFAULT-VALUE}).")
  public List<String> suites = new ArrayList<>(List.of("creation", "access", "namenode", "size",
      "throughput"));

  @Option(names = "--gets", defaultValue = "100",
      description = "Random gets per repetition (default: ${DEFAULT-VALUE}).")
  public int gets = 100;

  @Option(names = "--warmup", defaultValue = "100",
      description = "Untimed gets per system before the warm measurements"
          + " (default: ${DEFAULT-VALUE}).")
  public int warmup = 100;

  @Option(names = "--cold-warmup", defaultValue = "10",
      description = "Untimed cold gets per system before the cold measurements"
          + " (default: ${DEFAULT-VALUE}).")
  public int coldWarmup = 10;

  @Option(names = "--seqfile-gets", defaultValue = "20",
      description = "Timed gets per mode for SequenceFile, whose gets scan the file"
          + " (default: ${DEFAULT-VALUE}, taken from the first repetition's names).")
  public int seqfileGets = 20;

  @Option(names = "--put-threads", defaultValue = "16", paramLabel = "T",
      description = "Threads of the extra creation row \"HDFS -put -t T\": Hadoop's own shell"
          + " uploading the tree in parallel, as a user would (default: ${DEFAULT-VALUE}; 0:"
          + " not measured; needs HDFS in --systems).")
  public int putThreads = 16;

  @Option(names = "--hpf-threads", defaultValue = "0",
      description = "HPF writer threads (default: cores, at least 2).")
  public int hpfThreads = 0;

  @Option(names = "--hpf-bucket-capacity", defaultValue = "0",
      description = "HPF records per bucket (default: what fits one block).")
  public int hpfBucketCapacity = 0;

  @Option(names = "--hpf-compression", defaultValue = "AUTO",
      description = "HPF compression: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  public Compression hpfCompression = Compression.AUTO;

  @Option(names = "--seq-compression", defaultValue = "BLOCK",
      description = "MapFile and SequenceFile compression: ${COMPLETION-CANDIDATES}"
          + " (default: ${DEFAULT-VALUE}, with --seq-codec).")
  public CompressionType seqCompression = CompressionType.BLOCK;

  @Option(names = "--seq-codec", defaultValue = "org.apache.hadoop.io.compress.DefaultCodec",
      description = "MapFile and SequenceFile codec class (default: ${DEFAULT-VALUE}).")
  public String seqCodec = "org.apache.hadoop.io.compress.DefaultCodec";

  @Option(names = "--hpf-record-cache-mib", defaultValue = "64",
      description = "Record cache of the extra warm reader \"HPF+cache\" and of the cached get"
          + " throughput, in MiB (default: ${DEFAULT-VALUE}; 0: not measured).")
  public int hpfRecordCacheMib = 64;

  @Option(names = "--get-threads", defaultValue = "1,4,8", split = ",",
      description = "Thread counts of the get scaling measurement: HPF gets on one shared"
          + " reader at each, HDFS open+read at the largest (default: ${DEFAULT-VALUE}).")
  public int[] getThreads = {1, 4, 8};

  @Option(names = "--nn-threads", defaultValue = "4",
      description = "Threads of the metadata throughput suite (default: ${DEFAULT-VALUE}).")
  public int nnThreads = 4;

  @Option(names = "--nn-files", defaultValue = "10000",
      description = "Files of the metadata throughput suite (default: ${DEFAULT-VALUE}, at most"
          + " the dataset).")
  public int nnFiles = 10_000;

  @Option(names = "--nn-object-bytes", defaultValue = "200",
      description = "NameNode bytes per object (inode or block) of the memory model"
          + " (default: ${DEFAULT-VALUE}, Shvachko, 'HDFS Scalability: The Limits to Growth').")
  public int nnObjectBytes = 200;

  public int maxFiles() {
    return files.stream().mapToInt(Integer::intValue).max().orElseThrow();
  }

  public boolean runs(String suite) {
    return suites.stream().anyMatch(s -> s.equalsIgnoreCase(suite));
  }

  public boolean has(String system) {
    return systems.stream().anyMatch(s -> s.equalsIgnoreCase(system));
  }

  /** Checks the settings; returns a message for the first bad one, or null. */
  public String problem() {
    if (files.isEmpty() || files.stream().anyMatch(n -> n < 1)) {
      return "--files must be positive numbers";
    }
    if (has("HAR") && !has("HDFS")) {
      return "HAR archives the files the HDFS system uploads: add HDFS to --systems";
    }
    for (String s : systems) {
      if (!List.of("hdfs", "hpf", "har", "mapfile", "sequencefile").contains(s.toLowerCase())) {
        return "unknown system " + s + " (HDFS, HPF, HAR, MapFile, SequenceFile)";
      }
    }
    for (String s : suites) {
      if (!List.of("creation", "access", "namenode", "size", "throughput")
          .contains(s.toLowerCase())) {
        return "unknown suite " + s + " (creation, access, namenode, size, throughput)";
      }
    }
    if (putThreads < 0) {
      return "--put-threads must not be negative";
    }
    if (gets < 1 || reps < 1 || warmup < 0 || coldWarmup < 0 || seqfileGets < 0) {
      return "--gets and --reps must be positive, warm-ups and --seqfile-gets not negative";
    }
    if (cluster.problem() != null) {
      return cluster.problem();
    }
    if (blocks.replication < 1 || blocks.blockSize < 4096) {
      return "--replication must be positive and --block-size at least 4096";
    }
    return null;
  }

  /** The settings as they go into results.json. */
  public Map<String, Object> toMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("files", files);
    cluster.describe(map);
    blocks.describe(map);
    map.put("minSize", minSize);
    map.put("maxSize", maxSize);
    map.put("sizeDistribution", sizeDistribution.toString());
    map.put("paretoAlpha", paretoAlpha);
    map.put("content", content.toString());
    map.put("systems", systems);
    map.put("suites", suites);
    map.put("gets", gets);
    map.put("reps", reps);
    map.put("warmup", warmup);
    map.put("coldWarmup", coldWarmup);
    map.put("seqfileGets", seqfileGets);
    map.put("putThreads", putThreads);
    map.put("hpfThreads", hpfThreads);
    map.put("hpfBucketCapacity", hpfBucketCapacity);
    map.put("hpfCompression", hpfCompression.toString());
    map.put("seqCompression", seqCompression.toString());
    map.put("seqCodec", seqCodec);
    map.put("hpfRecordCacheMib", hpfRecordCacheMib);
    map.put("getThreads", java.util.Arrays.toString(getThreads));
    map.put("nnThreads", nnThreads);
    map.put("nnFiles", nnFiles);
    map.put("nnObjectBytes", nnObjectBytes);
    return map;
  }
}
