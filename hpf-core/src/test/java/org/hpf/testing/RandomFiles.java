package org.hpf.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;

/** Flat directories of random files for tests, and the bytes each name should read back. */
public final class RandomFiles {
  private RandomFiles() {}

  /**
   * Writes {@code count} files named {@code prefix + i} of 0 to {@code maxLength - 1} random
   * bytes into {@code dir} (created if missing); returns name to bytes, sorted by name.
   */
  public static TreeMap<String, byte[]> write(Path dir, String prefix, int count, int maxLength,
      long seed) throws IOException {
    Files.createDirectories(dir);
    Random random = new Random(seed);
    TreeMap<String, byte[]> files = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      byte[] bytes = new byte[random.nextInt(maxLength)];
      random.nextBytes(bytes);
      files.put(prefix + i, bytes);
      Files.write(dir.resolve(prefix + i), bytes);
    }
    return files;
  }

  /**
   * Writes random files as {@link #write} does into {@code dir/src} and creates the archive
   * {@code dir/<archiveName>} of them; returns name to bytes.
   */
  public static TreeMap<String, byte[]> archive(Path dir, String archiveName, String prefix,
      int count, int maxLength, long seed, WriterOptions options) throws IOException {
    TreeMap<String, byte[]> files = write(dir.resolve("src"), prefix, count, maxLength, seed);
    ArchiveCreator.create(new Configuration(),
        new org.apache.hadoop.fs.Path(dir.resolve(archiveName).toUri()),
        List.of(new org.apache.hadoop.fs.Path(dir.resolve("src").toUri())), options);
    return files;
  }
}
