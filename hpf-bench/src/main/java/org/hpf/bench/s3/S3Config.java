package org.hpf.bench.s3;

import java.io.File;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** Options of {@code hpf-bench s3}. */
public final class S3Config {
  /** The input streams S3A 3.5 offers for reads. */
  static final List<String> STREAMS = List.of("analytics", "classic");

  @Option(names = "--fs", paramLabel = "URI", description = "An s3a:// directory of a real"
      + " bucket to run in (e.g. s3a://bucket/tmp), set up by the usual S3A settings"
      + " (core-site.xml on the class path, --conf, -D); the run writes below a directory of its"
      + " own there and deletes it after (default: an S3-protocol server on 127.0.0.1 that the"
      + " run starts and stops).")
  public URI fs;

  @Option(names = "--files", defaultValue = "10000", paramLabel = "N",
      description = "Small files, written as one archive and as one object each"
          + " (default: ${DEFAULT-VALUE}).")
  public int files = 10_000;

  @Option(names = "--gets", defaultValue = "20", paramLabel = "N",
      description = "Members read by each get measurement, picked at random"
          + " (default: ${DEFAULT-VALUE}).")
  public int gets = 20;

  @Option(names = "--streams", split = ",", defaultValue = "analytics,classic",
      paramLabel = "TYPE[,TYPE]", description = "S3A input streams (fs.s3a.input.stream.type)"
          + " to measure the gets with (default: ${DEFAULT-VALUE}).")
  public List<String> streams = new ArrayList<>(STREAMS);

  @Option(names = "--warm-up", defaultValue = "20", paramLabel = "N",
      description = "Files of an untimed round of every measurement before the measured one,"
          + " so that the first way measured does not pay for loading the code of all"
          + " (default: ${DEFAULT-VALUE}; 0: none).")
  public int warmUpFiles = 20;

  @Option(names = "--min-size", defaultValue = "1024", paramLabel = "BYTES")
  public int minSize = 1024;

  @Option(names = "--max-size", defaultValue = "10485760", paramLabel = "BYTES",
      description = "Sizes are drawn from a bounded Pareto (shape 0.9) between --min-size and"
          + " this (default: 1 KiB to 10 MiB, about 14 KiB on average, as `run`'s).")
  public int maxSize = 10 << 20;

  @Option(names = "--seed", defaultValue = "20260101",
      description = "Seed of the files' sizes and content and of the members read"
          + " (default: ${DEFAULT-VALUE}).")
  public long seed = 20260101;

  @Option(names = "--conf", paramLabel = "FILE",
      description = "Hadoop configuration files (core-site.xml style) to add, for --fs.")
  public List<File> confFiles = new ArrayList<>();

  @Option(names = "-D", paramLabel = "KEY=VALUE", description = "A Hadoop setting, for --fs"
      + " (e.g. -D fs.s3a.endpoint.region=eu-west-1); also applied on the local server.")
  public Map<String, String> settings = new LinkedHashMap<>();

  @Option(names = "--keep", description = "Keep what the run wrote on --fs.")
  public boolean keep;

  @Option(names = {"-o", "--out"}, paramLabel = "DIR", defaultValue = "results/s3",
      description = "Where s3.json and s3.md go (default: ${DEFAULT-VALUE}).")
  public File out = new File("results/s3");

  /** Checks the settings; returns a message for the first bad one, or null. */
  public String problem() {
    if (files < 2 || gets < 1 || warmUpFiles < 0) {
      return "--files must be at least 2, --gets positive and --warm-up not negative";
    }
    if (2 * gets > files) {
      return "--gets must be at most half of --files: warm gets read members the warm-up did"
          + " not";
    }
    if (minSize < 1 || maxSize < minSize) {
      return "sizes must satisfy 1 <= --min-size <= --max-size";
    }
    if (fs != null && !"s3a".equals(fs.getScheme())) {
      return "--fs must be an s3a:// URI: the requests are counted from S3A's statistics";
    }
    for (String stream : streams) {
      if (!STREAMS.contains(stream)) {
        return "unknown stream " + stream + " (" + String.join(", ", STREAMS) + ")";
      }
    }
    return null;
  }

  /** The settings as s3.json records them. */
  Map<String, Object> toMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("fileSystem", fs == null ? "S3-protocol server on 127.0.0.1 (Adobe S3Mock)"
        : fs.toString());
    map.put("files", files);
    map.put("gets", gets);
    map.put("streams", streams);
    map.put("warmUpFiles", warmUpFiles);
    map.put("minSize", minSize);
    map.put("maxSize", maxSize);
    map.put("sizeDistribution", "PARETO, shape 0.9");
    map.put("content", "TEXT");
    map.put("seed", seed);
    map.put("settings", settings);
    return map;
  }
}
