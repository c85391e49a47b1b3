package org.hpf.fs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A directory of files to archive, with their expected bytes: text files of words in nested
 * directories, an empty file, names with spaces and non-ASCII letters, a file that compresses
 * well and a large random one (read in place from its part).
 */
final class SourceTree {
  static final String BIG = "data/big.bin";
  static final int BIG_LENGTH = (3 << 20) + 12345;

  private static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "hpf", "hadoop",
      "archive", "small", "file", "block"};

  final Path root;
  /** Member name to bytes, sorted by name. */
  final Map<String, byte[]> files = new TreeMap<>();

  SourceTree(Path root, long seed, int textFiles) throws IOException {
    this.root = root;
    Random random = new Random(seed);
    for (int i = 0; i < textFiles; i++) {
      StringBuilder text = new StringBuilder();
      int lines = 1 + random.nextInt(20);
      for (int l = 0; l < lines; l++) {
        int words = 1 + random.nextInt(12);
        for (int w = 0; w < words; w++) {
          text.append(w == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        text.append('\n');
      }
      String name = "text/d" + (i % 7) + "/sub" + (i % 3) + "/file-" + i + ".txt";
      add(name, text.toString().getBytes(StandardCharsets.UTF_8));
    }
    add("text/empty.txt", new byte[0]);
    add("text/with space.txt", "one two three\n".getBytes(StandardCharsets.UTF_8));
    add("text/größe-ü.txt", "hpf hadoop\n".getBytes(StandardCharsets.UTF_8));
    add("data/repeated.txt", "hpf ".repeat(50_000).getBytes(StandardCharsets.UTF_8));
    byte[] big = new byte[BIG_LENGTH];
    random.nextBytes(big);
    add(BIG, big);
  }

  /** Writes {@code count} files under {@code root}: file i named and filled by the functions. */
  static Map<String, byte[]> write(Path root, int count,
      java.util.function.IntFunction<String> name,
      java.util.function.IntFunction<byte[]> bytes) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      Path file = root.resolve(name.apply(i));
      Files.createDirectories(file.getParent());
      Files.write(file, bytes.apply(i));
      files.put(name.apply(i), Files.readAllBytes(file));
    }
    return files;
  }

  private void add(String name, byte[] bytes) throws IOException {
    Path file = root.resolve(name);
    Files.createDirectories(file.getParent());
    Files.write(file, bytes);
    files.put(name, bytes);
  }

  long bytesBelow(String prefix) {
    return files.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
        .mapToLong(e -> e.getValue().length).sum();
  }

  long countBelow(String prefix) {
    return files.keySet().stream().filter(n -> n.startsWith(prefix)).count();
  }
}
