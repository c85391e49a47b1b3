package org.hpf.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The demo's input: log-like text files of 1 KiB to 64 KiB (log-uniform, so most are small) in
 * nested directories {@code <service>/<day>/<host>-<n>.log}, all determined by the seed.
 */
final class DemoFiles {
  static final int MIN_SIZE = 1 << 10;
  static final int MAX_SIZE = 64 << 10;

  private static final String[] SERVICES =
      {"api-gateway", "auth", "billing", "catalog", "checkout", "search"};
  private static final String[] LEVELS = {"INFO ", "INFO ", "INFO ", "INFO ", "INFO ", "INFO ",
      "INFO ", "DEBUG", "WARN ", "ERROR"};
  /** Message templates: text, a hex id, text, a number, text, a number, text. */
  private static final String[][] MESSAGES = {
      {"request ", " completed in ", " ms (status 200, ", " bytes)"},
      {"cache miss for key user:", ", loaded in ", " ms (", " entries)"},
      {"connection pool ", ": ", " active, ", " waiting"},
      {"retrying call ", " after ", " ms (attempt ", " of 5)"},
      {"flushed batch ", ": ", " records in ", " ms"},
      {"session ", " expired after ", " s of inactivity (", " requests)"}};

  /** What was generated: member names in creation order and their lengths. */
  record Tree(Path root, List<String> names, long[] lengths, int directories, long bytes) {
    /** Blocks the files would take as plain files: one per started block of each non-empty file. */
    long blocksAsPlainFiles(long blockSize) {
      long blocks = 0;
      for (long length : lengths) {
        blocks += (length + blockSize - 1) / blockSize;
      }
      return blocks;
    }
  }

  private DemoFiles() {}

  /** Writes {@code count} files under {@code root} (which must not exist yet). */
  static Tree generate(Path root, int count, long seed) throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    List<String> names = new ArrayList<>(count);
    long[] lengths = new long[count];
    Set<Path> directories = new HashSet<>();
    Files.createDirectories(root);
    directories.add(root);
    long bytes = 0;
    for (int i = 0; i < count; i++) {
      String service = SERVICES[random.nextInt(SERVICES.length)];
      int day = 1 + random.nextInt(30);
      String name = String.format(Locale.ROOT, "%s/2024-05-%02d/host-%02d-%05d.log", service, day,
          1 + random.nextInt(12), i);
      int length = (int) Math.round(MIN_SIZE * Math.pow((double) MAX_SIZE / MIN_SIZE,
          random.nextDouble()));
      byte[] content = content(random.split(), service, day, length);
      Path file = root.resolve(name);
      for (Path dir = file.getParent(); !dir.equals(root); dir = dir.getParent()) {
        if (directories.add(dir)) {
          Files.createDirectories(dir);
        }
      }
      Files.write(file, content);
      names.add(name);
      lengths[i] = length;
      bytes += length;
    }
    return new Tree(root, names, lengths, directories.size(), bytes);
  }

  /** Log lines with increasing timestamps, cut to exactly {@code length} bytes. */
  private static byte[] content(SplittableRandom random, String service, int day, int length) {
    Text text = new Text(length);
    String logger = "] org.example." + service.replace('-', '.') + " - ";
    long millis = random.nextLong(86_400_000L - 3_600_000L);
    while (!text.full()) {
      millis += random.nextInt(2_000);
      long s = millis / 1000;
      text.ascii("2024-05-").digits(day, 2).ascii("T").digits(s / 3600, 2).ascii(":")
          .digits(s / 60 % 60, 2).ascii(":").digits(s % 60, 2).ascii(".").digits(millis % 1000, 3)
          .ascii("Z ").ascii(LEVELS[random.nextInt(LEVELS.length)]).ascii(" [worker-")
          .digits(random.nextInt(16), 1).ascii(logger);
      String[] message = MESSAGES[random.nextInt(MESSAGES.length)];
      text.ascii(message[0]).hex(random.nextInt()).ascii(message[1])
          .digits(random.nextInt(1, 2_000), 1).ascii(message[2])
          .digits(random.nextInt(1, 100_000), 1).ascii(message[3]).ascii("\n");
    }
    return text.bytes;
  }

  /** ASCII text written into a fixed-size array; whatever does not fit is dropped. */
  private static final class Text {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    final byte[] bytes;
    private final byte[] scratch = new byte[20];
    private int size;

    Text(int length) {
      bytes = new byte[length];
    }

    boolean full() {
      return size == bytes.length;
    }

    private void put(int b) {
      if (size < bytes.length) {
        bytes[size++] = (byte) b;
      }
    }

    Text ascii(String s) {
      for (int i = 0; i < s.length(); i++) {
        put(s.charAt(i));
      }
      return this;
    }

    /** A non-negative number in decimal, zero-padded to at least {@code width} digits. */
    Text digits(long value, int width) {
      int n = 0;
      do {
        scratch[n++] = (byte) ('0' + value % 10);
        value /= 10;
      } while (value > 0);
      while (n < width) {
        scratch[n++] = '0';
      }
      while (n > 0) {
        put(scratch[--n]);
      }
      return this;
    }

    Text hex(int value) {
      for (int shift = 28; shift >= 0; shift -= 4) {
        put(HEX[(value >>> shift) & 0xf]);
      }
      return this;
    }
  }
}
