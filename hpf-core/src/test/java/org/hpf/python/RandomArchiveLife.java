package org.hpf.python;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.hpf.ArchiveSettings;
import org.hpf.ArchiveWriter;
import org.hpf.HpfArchive;
import org.hpf.MemberAccess;
import org.hpf.WriteSettings;

/**
 * An archive written by the Java writer through a random life: a create, an append that adds
 * and replaces, a delete and a compaction, each committed. Small buckets and parts, so that it
 * has many buckets, several index layers and parts; raw, compressible, empty and one chunked
 * (over 1 MiB) member; three access classes.
 */
final class RandomArchiveLife {
  /** Called after each commit, with what the commit did and the names deleted so far. */
  @FunctionalInterface
  interface AfterCommit {
    void check(String step, List<String> deleted) throws IOException;
  }

  private static final MemberAccess[] ACCESSES = {new MemberAccess("hpf", "users", 0644),
      new MemberAccess("hpf", "users", 0600), new MemberAccess("ünï", "grüppe", 02750)};

  private final Random random;
  private final List<String> names = new ArrayList<>();
  private final List<String> deleted = new ArrayList<>();

  private RandomArchiveLife(long seed) {
    this.random = new Random(seed);
  }

  static void live(Path archive, Configuration conf, long seed, AfterCommit after)
      throws IOException {
    new RandomArchiveLife(seed).live(archive, conf, after);
  }

  private void live(Path archive, Configuration conf, AfterCommit after) throws IOException {
    ArchiveSettings layout = ArchiveSettings.defaults().withBucketCapacity(8)
        .withPartSize(16 << 10);
    // Members readable by fewer users than the archive's readers are the point here.
    WriteSettings settings = WriteSettings.builder().allowAccessLoss(true).build();
    try (ArchiveWriter writer = HpfArchive.create(archive, conf, layout, settings)) {
      for (int i = 0; i < 60; i++) {
        add(writer, "d" + random.nextInt(4) + "/file-" + i + (i % 7 == 0 ? "-ü" : ""),
            i == 0 ? (1 << 20) + 4321 : random.nextInt(3000));
      }
      writer.commit();
    }
    after.check("create", deleted);
    try (ArchiveWriter writer = HpfArchive.openWriter(archive, conf, settings)) {
      // Fewer records than a quarter of the base's: a layer of their own.
      for (int i = 0; i < 8; i++) {
        add(writer, "new/" + i, random.nextInt(2000));
      }
      List<String> replaced = new ArrayList<>(names.subList(1, 60));
      java.util.Collections.shuffle(replaced, random);
      for (String name : replaced.subList(0, 4)) {
        byte[] bytes = content(random.nextInt(1500));
        writer.replace(name, new ByteArrayInputStream(bytes), bytes.length, mtime(), access());
      }
      writer.commit();
    }
    after.check("append", deleted);
    try (ArchiveWriter writer = HpfArchive.openWriter(archive, conf, settings)) {
      // Tombstones in a layer of their own: under a quarter of the append's layer below them.
      for (int i = 0; i < 2; i++) {
        String name = names.remove(1 + random.nextInt(names.size() - 1));
        writer.delete(name);
        deleted.add(name);
      }
      writer.commit();
    }
    after.check("delete", deleted);
    try (ArchiveWriter writer = HpfArchive.openWriter(archive, conf, settings)) {
      writer.compact(1.0);
      writer.commit();
    }
    after.check("compact", deleted);
  }

  private void add(ArchiveWriter writer, String name, int length) throws IOException {
    byte[] bytes = content(length);
    writer.add(name, new ByteArrayInputStream(bytes), bytes.length, mtime(), access());
    names.add(name);
  }

  /** Random bytes (stored raw) or repetitive text (stored LZ4), as random picks. */
  private byte[] content(int length) {
    if (length > 1 << 20 || random.nextBoolean()) {
      byte[] bytes = new byte[length];
      random.nextBytes(bytes);
      return bytes;
    }
    StringBuilder text = new StringBuilder();
    while (text.length() < length) {
      text.append("line ").append(random.nextInt(50)).append(" of some text\n");
    }
    return text.substring(0, length).getBytes(StandardCharsets.ISO_8859_1);
  }

  private long mtime() {
    return 1_700_000_000_000L + random.nextInt(1 << 30);
  }

  private MemberAccess access() {
    return ACCESSES[random.nextInt(ACCESSES.length)];
  }
}
