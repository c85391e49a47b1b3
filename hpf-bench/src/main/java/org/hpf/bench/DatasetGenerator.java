package org.hpf.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

/**
 * Writes a deterministic tree of small files. File {@code i} depends only on the seed and
 * {@code i}, so the dataset of N files is the first N files of any larger one. Sizes follow a
 * {@link SizeDistribution} between a minimum and a maximum (by default a bounded Pareto, skewed
 * toward small like application logs); content is log-like text, incompressible bytes, or both
 * alternately; names are nested like {@code app-07/2026-11-03/host-12/log-000123.txt}.
 */
public final class DatasetGenerator {
  private static final String[] LEVELS = {"INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"};
  private static final String[] COMPONENTS = {"http", "db", "cache", "auth", "scheduler",
      "storage", "rpc", "gc"};

  /** How file sizes are drawn between the minimum and the maximum. */
  public enum SizeDistribution {
    /**
     * Bounded Pareto with shape {@code alpha}: density proportional to {@code x^-(alpha+1)}.
     * With 1 KiB..10 MiB and alpha 0.9 the mean is about 14 KiB and the median about 2.2 KiB,
     * close to the HPF paper's datasets (1.44 GB for 100,000 log files).
     */
    PARETO,
    /** Log-uniform: every factor of ten between minimum and maximum equally likely. */
    LOG_UNIFORM
  }

  /** What the files contain. */
  public enum Content {
    /** Log lines (timestamps, levels, hex ids): compresses about 2-3x with LZ4. */
    TEXT,
    /** Random bytes: incompressible. */
    RANDOM,
    /** Even files text, odd files random. */
    MIXED
  }

  /** One generated file: its name, the batch directory it is in, its size and CRC32C. */
  public record Member(String name, int batch, int size, int crc32c) {}

  /** The files written: their members in generation order and where they are. */
  public record Dataset(Path root, int batchSize, List<Member> members, long totalBytes,
      Map<String, Member> byName) {
    /** The member of this name, or null. */
    public Member member(String name) {
      return byName.get(name);
    }

    /** The directory of batch {@code b} (files {@code b*batchSize .. (b+1)*batchSize-1}). */
    public Path batchDir(int b) {
      return root.resolve(batchName(b));
    }

    /** The first {@code n} members (n must be a multiple of the batch size, or all). */
    public List<Member> first(int n) {
      return members.subList(0, n);
    }

    public long bytesOfFirst(int n) {
      long sum = 0;
      for (int i = 0; i < n; i++) {
        sum += members.get(i).size();
      }
      return sum;
    }

    /** The local file of a member. */
    public Path fileOf(Member m) {
      return batchDir(m.batch()).resolve(m.name());
    }
  }

  private final long seed;
  private final int minSize;
  private final int maxSize;
  private final SizeDistribution distribution;
  private final double alpha;
  private final Content content;

  public DatasetGenerator(long seed, int minSize, int maxSize, SizeDistribution distribution,
      double alpha, Content content) {
    if (minSize < 1 || maxSize < minSize) {
      throw new IllegalArgumentException("sizes must satisfy 1 <= min <= max: " + minSize
          + ", " + maxSize);
    }
    if (distribution == SizeDistribution.PARETO && !(alpha > 0)) {
      throw new IllegalArgumentException("Pareto shape must be positive: " + alpha);
    }
    this.seed = seed;
    this.minSize = minSize;
    this.maxSize = maxSize;
    this.distribution = distribution;
    this.alpha = alpha;
    this.content = content;
  }

  static String batchName(int b) {
    return String.format(Locale.ROOT, "batch-%05d", b);
  }

  /** Writes {@code count} files directly below {@code root}; returns their names in order. */
  public List<String> write(Path root, int count) throws IOException {
    List<String> names = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      Generated file = generate(i);
      Path path = root.resolve(file.name());
      Files.createDirectories(path.getParent());
      Files.write(path, file.bytes());
      names.add(file.name());
    }
    return names;
  }

  /**
   * Writes {@code count} files in batches of {@code batchSize}: file {@code i} goes below
   * {@code root/batch-<i / batchSize>/}. Each batch directory can then be given to an archiver
   * as a source root, and the first N files are the first N / batchSize batches.
   */
  public Dataset writeBatches(Path root, int count, int batchSize) throws IOException {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be positive: " + batchSize);
    }
    List<Member> members = new ArrayList<>(count);
    long total = 0;
    CRC32C crc = new CRC32C();
    for (int i = 0; i < count; i++) {
      Generated generated = generate(i);
      String name = generated.name();
      byte[] bytes = generated.bytes();
      int batch = i / batchSize;
      Path file = root.resolve(batchName(batch)).resolve(name);
      Files.createDirectories(file.getParent());
      try (OutputStream out = Files.newOutputStream(file)) {
        out.write(bytes);
      }
      crc.reset();
      crc.update(bytes);
      members.add(new Member(name, batch, bytes.length, (int) crc.getValue()));
      total += bytes.length;
    }
    Map<String, Member> byName = new HashMap<>(members.size() * 2);
    for (Member m : members) {
      byName.put(m.name(), m);
    }
    return new Dataset(root, batchSize, List.copyOf(members), total,
        Collections.unmodifiableMap(byName));
  }

  /** File {@code i}'s name and bytes, generated in memory (the same as written to disk). */
  public Generated generate(int i) {
    SplittableRandom random = randomOf(i);
    String name = nameOf(i, random);
    return new Generated(name, content(random, i));
  }

  /** One file's name and content. */
  public record Generated(String name, byte[] bytes) {}

  /** The size file {@code i} has (without writing it). */
  public int sizeOf(int i) {
    SplittableRandom random = randomOf(i);
    nameOf(i, random);
    return drawSize(random);
  }

  private SplittableRandom randomOf(int i) {
    return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
  }

  private static String nameOf(int i, SplittableRandom random) {
    return String.format(Locale.ROOT, "app-%02d/2026-11-%02d/host-%02d/log-%07d.txt",
        random.nextInt(16), 1 + random.nextInt(28), random.nextInt(32), i);
  }

  private int drawSize(SplittableRandom random) {
    double u = random.nextDouble();
    double size;
    if (distribution == SizeDistribution.LOG_UNIFORM) {
      double logMin = Math.log(minSize);
      double logMax = Math.log(maxSize);
      size = Math.exp(logMin + u * (logMax - logMin));
    } else {
      // Inverse CDF of the Pareto distribution bounded to [L, H].
      double la = Math.pow(minSize, alpha);
      double ha = Math.pow(maxSize, alpha);
      size = Math.pow(-(u * ha - u * la - ha) / (ha * la), -1 / alpha);
    }
    return (int) Math.max(minSize, Math.min(maxSize, Math.round(size)));
  }

  private byte[] content(SplittableRandom random, int i) {
    int size = drawSize(random);
    byte[] bytes = new byte[size];
    boolean text = content == Content.TEXT || (content == Content.MIXED && i % 2 == 0);
    if (!text) {
      random.nextBytes(bytes);
      return bytes;
    }
    StringBuilder line = new StringBuilder(160);
    long time = 1_763_000_000_000L + random.nextInt(1_000_000_000);
    int at = 0;
    while (at < size) {
      time += random.nextInt(5000);
      line.setLength(0);
      line.append(time).append(' ').append(LEVELS[random.nextInt(LEVELS.length)])
          .append(" [").append(COMPONENTS[random.nextInt(COMPONENTS.length)])
          .append("-worker-").append(random.nextInt(64)).append("] request ")
          .append(Long.toHexString(random.nextLong() >>> 20)).append(" served in ")
          .append(random.nextInt(900)).append(" ms\n");
      byte[] ascii = line.toString().getBytes(StandardCharsets.US_ASCII);
      int n = Math.min(ascii.length, size - at);
      System.arraycopy(ascii, 0, bytes, at, n);
      at += n;
    }
    return bytes;
  }
}
