package org.hpf.crash;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;

/**
 * A writer process for {@link ObjectStoreKillTest}: makes one change to an archive (create,
 * append, delete or compact) and exits, unless it is killed first. Members are added slowly
 * enough for a kill to land in the middle of a merge.
 *
 * <p>Arguments: configuration file, archive URI, change, part size, member size, the file to
 * create once the writer is open.
 */
public final class StoreChange {
  /** Members a create or an append adds. */
  static final int ADDED = 12;
  /** The size of a member: small, so that a run is quick. */
  static final int SMALL_MEMBERS = 32 << 10;
  /**
   * The size of a member where together they are more than S3A's least upload part (5 MiB), so
   * that one part holding them all is a multipart upload.
   */
  static final int LARGE_MEMBERS = 512 << 10;

  private StoreChange() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    conf.addResource(new org.apache.hadoop.fs.Path(args[0]));
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path(args[1]);
    String change = args[2];
    long partSize = Long.parseLong(args[3]);
    int memberBytes = Integer.parseInt(args[4]);
    Path opened = Path.of(args[5]);
    WriterOptions options = options(partSize);
    if (change.equals("create")) {
      try (ArchiveWriter writer = ArchiveWriter.create(conf, archive, options)) {
        Files.writeString(opened, "");
        add(writer, "created", memberBytes);
        writer.commit();
      }
      return;
    }
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, options)) {
      Files.writeString(opened, "");
      switch (change) {
        case "append" -> {
          add(writer, "appended", memberBytes);
          writer.commit();
        }
        case "delete" -> writer.delete(deleted());
        case "compact" -> writer.compact(1.0);
        default -> throw new IllegalArgumentException(change);
      }
    }
  }

  static WriterOptions options(long partSize) {
    return WriterOptions.builder().settings(s -> s.threads(1))
        .layout(l -> l.withPartSize(partSize)).build();
  }

  private static void add(ArchiveWriter writer, String prefix, int memberBytes)
      throws Exception {
    for (int i = 0; i < ADDED; i++) {
      String name = prefix + "/m-" + i;
      writer.add(name, bytes(name, memberBytes), 0);
      Thread.sleep(20);
    }
  }

  /** The members a delete removes from the base archive. */
  static List<String> deleted() {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < ADDED; i += 3) {
      names.add("base/m-" + i);
    }
    return names;
  }

  /** The bytes of member {@code name}: random, seeded by the name, so they do not compress. */
  static byte[] bytes(String name, int length) {
    byte[] bytes = new byte[length];
    new java.util.Random(name.hashCode()).nextBytes(bytes);
    return bytes;
  }
}
