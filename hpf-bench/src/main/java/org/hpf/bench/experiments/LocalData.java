package org.hpf.bench.experiments;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The local source files an experiment uploads, like Kalmukov et al.'s files made with dd:
 * exact sizes, content that does not compress (random), {@code total} bytes split into files of
 * about {@code fileSize}, so every layout of the same total holds the same bytes to the byte.
 * Made once per layout and reused by every repetition.
 */
final class LocalData {
  /** Random bytes every file is cut from (at a per-file offset): generating is not timed. */
  private static final int POOL = 4 << 20;

  private final byte[] pool;

  LocalData(long seed) {
    pool = new byte[POOL];
    new SplittableRandom(seed).nextBytes(pool);
  }

  /**
   * The files of one layout below {@code dir}, created unless they already are: {@code total}
   * bytes in as many files as {@code fileSize} goes into it (rounded), of equal sizes but for a
   * byte, so that no stray short file joins the layout.
   */
  List<Path> files(Path dir, long total, long fileSize) throws IOException {
    Files.createDirectories(dir);
    long count = Math.max(1, Math.round((double) total / fileSize));
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      long size = total / count + (i < total % count ? 1 : 0);
      Path file = dir.resolve(String.format(Locale.ROOT, "f-%07d.bin", i));
      if (!Files.exists(file) || Files.size(file) != size) {
        write(file, size, i);
      }
      files.add(file);
    }
    return files;
  }

  private void write(Path file, long size, int index) throws IOException {
    int offset = (int) ((index * 7919L) % POOL);
    try (OutputStream out = Files.newOutputStream(file)) {
      long left = size;
      while (left > 0) {
        int n = (int) Math.min(left, POOL - offset);
        out.write(pool, offset, n);
        left -= n;
        offset = 0;
      }
    }
  }

  static long bytes(List<Path> files) throws IOException {
    long total = 0;
    for (Path f : files) {
      total += Files.size(f);
    }
    return total;
  }
}
