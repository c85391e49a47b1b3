package org.hpf.battery;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.format.MemberNames;

/**
 * A tree of source files known byte for byte: what a test writes to a file system and later
 * expects to read back from an archive. Names are member names ('/'-separated, relative to the
 * source root); a name is refused if it would need a file and a directory of the same path.
 */
final class TestTree {
  /** One file: its member name, exact bytes and the modification time the test gave it. */
  record Member(String name, byte[] bytes, long mtimeMillis) {}

  private final SortedMap<String, Member> members = new TreeMap<>(MemberNames.ORDER);
  private final Set<String> directories = new HashSet<>();

  /** Adds a file; false (and nothing added) if the name clashes with a file or directory. */
  boolean add(String name, byte[] bytes, long mtimeMillis) {
    if (members.containsKey(name) || directories.contains(name)) {
      return false;
    }
    List<String> parents = parents(name);
    for (String parent : parents) {
      if (members.containsKey(parent)) {
        return false;
      }
    }
    directories.addAll(parents);
    members.put(name, new Member(name, bytes, mtimeMillis));
    return true;
  }

  void addOrFail(String name, byte[] bytes, long mtimeMillis) {
    if (!add(name, bytes, mtimeMillis)) {
      throw new IllegalArgumentException("test tree already has " + name);
    }
  }

  private static List<String> parents(String name) {
    List<String> parents = new ArrayList<>();
    for (int i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
      parents.add(name.substring(0, i));
    }
    return parents;
  }

  /** Members by name, in {@link MemberNames#ORDER}. */
  SortedMap<String, Member> members() {
    return Collections.unmodifiableSortedMap(members);
  }

  Member member(String name) {
    return members.get(name);
  }

  List<String> names() {
    return new ArrayList<>(members.keySet());
  }

  int size() {
    return members.size();
  }

  long totalBytes() {
    long total = 0;
    for (Member m : members.values()) {
      total += m.bytes().length;
    }
    return total;
  }

  /** Writes the tree below a local directory (created if needed) and sets every mtime. */
  void writeLocal(java.nio.file.Path root) throws IOException {
    Files.createDirectories(root);
    for (Member m : members.values()) {
      java.nio.file.Path file = root;
      for (String component : m.name().split("/")) {
        file = file.resolve(component);
      }
      Files.createDirectories(file.getParent());
      Files.write(file, m.bytes());
      Files.setLastModifiedTime(file, FileTime.fromMillis(m.mtimeMillis()));
    }
  }

  /**
   * Writes the tree below {@code root} of any Hadoop file system and sets every mtime where the
   * file system keeps one it is given (an object store keeps the time of the upload instead).
   * Returns the tree as written: with the mtimes the file system lists.
   */
  TestTree writeTo(FileSystem fileSystem, Path root) throws IOException {
    // The raw local file system, as hpf reads sources: no .crc side files among the sources.
    FileSystem fs = fileSystem instanceof LocalFileSystem local ? local.getRaw() : fileSystem;
    fs.mkdirs(root);
    for (Member m : members.values()) {
      Path file = root;
      for (String component : m.name().split("/")) {
        file = new Path(file, component);
      }
      try (OutputStream out = fs.create(file, false)) {
        out.write(m.bytes());
      }
      fs.setTimes(file, m.mtimeMillis(), -1);
    }
    TestTree written = new TestTree();
    String prefix = fs.makeQualified(root).toString() + "/";
    var listed = fs.listFiles(root, true);
    while (listed.hasNext()) {
      org.apache.hadoop.fs.LocatedFileStatus status = listed.next();
      Member m = members.get(status.getPath().toString().substring(prefix.length()));
      written.addOrFail(m.name(), m.bytes(), status.getModificationTime());
    }
    return written;
  }

  // ---- content and names -------------------------------------------------------------------

  private static final String[] WORDS = {"hadoop", "archive", "small", "file", "perfect",
      "hash", "bucket", "index", "part", "entry", "the", "of", "and", "block", "name", "node",
      "data", "\n", " ", "0", "1", "2024", "é", "日本", "🚀"};

  /** Incompressible bytes. */
  static byte[] randomBytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  /** Text from a small vocabulary: LZ4 compresses it by far more than 1/8. */
  static byte[] text(Random random, int length) {
    byte[] bytes = new byte[length];
    int at = 0;
    while (at < length) {
      byte[] word = WORDS[random.nextInt(WORDS.length)].getBytes(StandardCharsets.UTF_8);
      int n = Math.min(word.length, length - at);
      System.arraycopy(word, 0, bytes, at, n);
      at += n;
    }
    return bytes;
  }

  /** Random or text content, half and half. */
  static byte[] content(Random random, int length) {
    return random.nextBoolean() ? randomBytes(random, length) : text(random, length);
  }

  /** An mtime in 2017..2020 with a random millisecond part. */
  static long mtime(Random random) {
    return 1_500_000_000_000L + (long) (random.nextDouble() * 100_000_000_000L);
  }

  /**
   * Pieces names are built from: ASCII, punctuation that is legal in Hadoop paths, accents
   * (precomposed and combining), CJK, Hangul, emoji (outside the BMP, with a skin-tone modifier),
   * fullwidth forms (in the BMP above the surrogates: UTF-16 order differs from UTF-8 order).
   */
  private static final String[] PIECES = {"a", "b", "c", "x", "y", "z", "0", "7", "9", "A", "Z",
      "_", "-", ".", " ", "+", "=", "~", "@", "!", "(", ")", "[", "]", "'", ",",
      "é", "e\u0301", "ü", "ñ", "ç", "ø", "ß", "Ω", "π", "日", "本", "語", "漢字", "ファイル",
      "한글", "😀", "🎉", "🚀", "👍🏽", "Ａ", "！", "\uFFFD"};

  static String component(Random random, int maxPieces) {
    while (true) {
      StringBuilder sb = new StringBuilder();
      int n = 1 + random.nextInt(maxPieces);
      for (int i = 0; i < n; i++) {
        sb.append(PIECES[random.nextInt(PIECES.length)]);
      }
      String c = sb.toString();
      if (!c.equals(".") && !c.equals("..")) {
        return c;
      }
    }
  }

  /** A random name of {@code depth} components (1 = a file at the root). */
  static String name(Random random, int depth) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < depth; i++) {
      if (i > 0) {
        sb.append('/');
      }
      // Few distinct short directory names, so that files share directories.
      sb.append(i < depth - 1 && random.nextInt(3) > 0 ? "d" + random.nextInt(4)
          : component(random, 6));
    }
    return sb.toString();
  }
}
