package org.hpf.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Writes a deterministic tree of small files: sizes log-uniform between a minimum and maximum
 * (skewed toward small, like application logs), half log-like text and half incompressible
 * bytes, nested names like {@code app-07/2026-11-03/host-12/log-000123.txt}.
 */
public final class DatasetGenerator {
  private static final String[] LEVELS = {"INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"};

  private final long seed;
  private final int minSize;
  private final int maxSize;

  public DatasetGenerator(long seed, int minSize, int maxSize) {
    this.seed = seed;
    this.minSize = minSize;
    this.maxSize = maxSize;
  }

  /** Writes {@code count} files below {@code root}; returns their relative names in order. */
  public List<String> write(Path root, int count) throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    List<String> names = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String name = nameOf(i, random);
      Path file = root.resolve(name);
      Files.createDirectories(file.getParent());
      Files.write(file, content(random, i));
      names.add(name);
    }
    return names;
  }

  private static String nameOf(int i, SplittableRandom random) {
    return String.format(Locale.ROOT, "app-%02d/2026-11-%02d/host-%02d/log-%06d.txt",
        random.nextInt(16), 1 + random.nextInt(28), random.nextInt(32), i);
  }

  private byte[] content(SplittableRandom random, int i) {
    double logMin = Math.log(minSize);
    double logMax = Math.log(maxSize);
    int size = (int) Math.round(Math.exp(logMin + random.nextDouble() * (logMax - logMin)));
    byte[] bytes = new byte[size];
    if (i % 2 == 1) {
      random.nextBytes(bytes);
      return bytes;
    }
    StringBuilder text = new StringBuilder(size + 128);
    long time = 1_763_000_000_000L + random.nextInt(1_000_000);
    while (text.length() < size) {
      time += random.nextInt(5000);
      text.append(time).append(' ').append(LEVELS[random.nextInt(LEVELS.length)])
          .append(" [worker-").append(random.nextInt(64)).append("] request ")
          .append(Long.toHexString(random.nextLong())).append(" served in ")
          .append(random.nextInt(900)).append(" ms\n");
    }
    byte[] utf8 = text.toString().getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(utf8, 0, bytes, 0, size);
    return bytes;
  }
}
