package org.hpf.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.hpf.FileNotInArchiveException;
import org.hpf.HpfException;
import org.hpf.internal.format.Checksums;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.LocalTrees;
import org.hpf.testing.ReplaySeeds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crafted archives: someone who can write to the cluster sets a field of the manifest, a
 * directory, an index file or a names segment to a hostile value (zero, -1, the largest int,
 * a large or a random number), then recomputes every checksum the field is under (the footer,
 * an index file's function checksum and record checksums, a names block's checksum), so the
 * file passes every integrity check and the reader must rely on its bounds. Opening the archive
 * and reading, listing and stat-ing every member must give the right bytes, "not found" or a
 * typed hpf error, within seconds and without allocating more than a small multiple of the
 * archive's size.
 *
 * <p>{@code -Dhpf.crafted.mutations=N} sets the number of crafted archives (default 400);
 * {@code -Dhpf.crafted.seed=S} replays one seed (failures name theirs).
 */
class CraftedArchiveTest {
  /** Seeds every run tries, besides a new random one. */
  private static final long[] SEEDS = {1, 2, 3};
  private static final Configuration CONF = new Configuration();
  /** Reading this archive legitimately allocates a few MiB; a crafted size must not get 32. */
  private static final long ALLOCATION_LIMIT = 32L << 20;
  private static final int HEADER = 24;
  private static final int FOOTER = 8;

  @TempDir Path tmp;

  @Test
  void craftedFieldsWithValidChecksumsFailCleanly() throws Exception {
    int mutations = Integer.getInteger("hpf.crafted.mutations", 400);
    ReplaySeeds seeds = ReplaySeeds.of("hpf.crafted.seed", SEEDS);
    Map<String, byte[]> members = new HashMap<>();
    Path template = buildTemplate(members);
    List<Path> targets;
    try (var walk = Files.walk(template)) {
      targets = walk.filter(Files::isRegularFile).filter(CraftedArchiveTest::isIndexSide)
          .sorted().toList();
    }
    int errors = 0;
    Map<String, Integer> perKind = new HashMap<>();
    for (long seed : seeds.seeds()) {
      Random random = new Random(seed);
      for (int i = 0; i < seeds.share(mutations); i++) {
        Path dir = tmp.resolve("m" + (i % 4));
        LocalTrees.copy(template, dir);
        Path victim =
            dir.resolve(template.relativize(targets.get(random.nextInt(targets.size()))));
        String what = craft(victim, random);
        perKind.merge(kind(victim.getFileName().toString()), 1, Integer::sum);
        String context = "crafted " + i + " (" + seeds.replay(seed) + "): " + what + " in "
            + dir.relativize(victim);
        errors += assertTimeoutPreemptively(Duration.ofSeconds(30),
            () -> readEverything(dir, members, context), context);
      }
    }
    System.out.println("crafted: " + perKind + ", " + errors + " typed errors, no wrong byte");
    assertTrue(errors > 0, "no crafted field was ever refused: the mutations miss the fields");
  }

  private static boolean isIndexSide(Path file) {
    String name = file.getFileName().toString();
    return name.startsWith("manifest-") || name.startsWith("directory-")
        || name.startsWith("index-") || name.startsWith("names-");
  }

  private static String kind(String name) {
    return name.substring(0, name.indexOf('-'));
  }

  /** Two layers (a create and an append) and two names segments, with a deletion. */
  private Path buildTemplate(Map<String, byte[]> members) throws IOException {
    Random random = new Random(11);
    Path template = tmp.resolve("template");
    WriterOptions options = WriterOptions.builder().settings(s -> s.threads(2))
        .layout(l -> l.withBucketCapacity(16).withPartSize(32 * 1024)).build();
    ArchiveCreator.create(CONF, hadoopPath(template),
        List.of(hadoopPath(sources("a", 70, random, members))), options);
    try (ArchiveWriter writer = ArchiveWriter.open(CONF, hadoopPath(template), options)) {
      writer.append(List.of(hadoopPath(sources("b", 20, random, members))), false);
      writer.delete(List.of("a/f3"));
    }
    members.remove("a/f3");
    return template;
  }

  private Path sources(String prefix, int count, Random random, Map<String, byte[]> into)
      throws IOException {
    Path root = tmp.resolve("src-" + prefix);
    for (int i = 0; i < count; i++) {
      byte[] bytes = new byte[random.nextInt(2000)];
      random.nextBytes(bytes);
      Path file = root.resolve(prefix + "/f" + i);
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
      into.put(prefix + "/f" + i, bytes);
    }
    return root;
  }

  /** Sets one field-sized run of the file's body to a hostile value, then re-seals the file. */
  private static String craft(Path file, Random random) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    int width = new int[] {1, 2, 4, 8}[random.nextInt(4)];
    int at = HEADER + random.nextInt(Math.max(1, bytes.length - FOOTER - HEADER - width + 1));
    long value = switch (random.nextInt(7)) {
      case 0 -> 0;
      case 1 -> -1;
      case 2 -> width == 8 ? Long.MAX_VALUE : (1L << (8 * width - 1)) - 1;
      case 3 -> 1 + random.nextInt(300);
      case 4 -> 1L << (8 * Math.min(width, 4) - 2);
      case 5 -> 1 << 28;
      default -> random.nextLong();
    };
    for (int k = 0; k < width && at + k < bytes.length - FOOTER; k++) {
      bytes[at + k] = (byte) (value >>> (8 * (width - 1 - k)));
    }
    String name = file.getFileName().toString();
    if (name.startsWith("index-")) {
      resealIndex(bytes);
    } else if (name.startsWith("names-")) {
      resealNames(bytes);
    }
    resealFooter(bytes);
    Files.write(file, bytes);
    return width + "-byte field at " + at + " set to " + value;
  }

  /** The function checksum and every record checksum, where the (crafted) header puts them. */
  private static void resealIndex(byte[] bytes) {
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    int end = bytes.length - FOOTER;
    int recordCount = buf.getInt(HEADER);
    long functionLength = buf.getInt(HEADER + 11);
    long checksumAt = HEADER + 15 + functionLength;
    if (functionLength < 0 || checksumAt + 4 > end) {
      return;
    }
    buf.putInt((int) checksumAt, Checksums.crc32c(bytes, HEADER, (int) (checksumAt - HEADER)));
    long record = checksumAt + 4;
    for (int i = 0; i < recordCount && record + 40 <= end; i++, record += 40) {
      buf.putInt((int) record + 36, Checksums.crc32c(bytes, (int) record, 36));
    }
  }

  /** Every block checksum, walking the blocks by their (crafted) counts and lengths. */
  private static void resealNames(byte[] bytes) {
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    int end = bytes.length - FOOTER;
    long at = HEADER;
    while (at + 8 <= end) {
      int count = buf.getInt((int) at);
      long length = buf.getInt((int) at + 4);
      long checksumAt = at + 8 + length;
      if (count == 0 || length < 0 || checksumAt + 4 > end) {
        return;
      }
      buf.putInt((int) checksumAt, Checksums.crc32c(bytes, (int) at, (int) (8 + length)));
      at = checksumAt + 4;
    }
  }

  private static void resealFooter(byte[] bytes) {
    ByteBuffer.wrap(bytes).putInt(bytes.length - 4,
        Checksums.crc32c(bytes, 0, bytes.length - 4));
  }

  /** Opens, reads, stats and lists everything; returns the typed errors raised. */
  private static int readEverything(Path dir, Map<String, byte[]> members, String context) {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
    int errors = 0;
    try (HpfReader reader = HpfReader.open(CONF, hadoopPath(dir))) {
      for (Map.Entry<String, byte[]> member : members.entrySet()) {
        errors += readOne(reader, member.getKey(), member.getValue(), context);
      }
      try (var names = reader.listEntries()) {
        // A crafted names segment can list any name; reading one it made up must not give bytes.
        for (var entry : (Iterable<org.hpf.internal.format.NameEntry>) names::iterator) {
          if (!members.containsKey(entry.name())) {
            errors += readOne(reader, entry.name(), null, context);
          }
        }
      } catch (java.io.UncheckedIOException e) {
        if (!(e.getCause() instanceof HpfException)) {
          throw new AssertionError(context + ": list threw an untyped " + e, e);
        }
        errors++;
      }
    } catch (HpfException e) {
      errors++;
    } catch (IOException | RuntimeException e) {
      throw new AssertionError(context + ": threw an untyped " + e, e);
    } catch (OutOfMemoryError e) {
      throw new AssertionError(context + ": ran out of memory", e);
    }
    long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
    assertTrue(allocated < ALLOCATION_LIMIT, context + ": allocated " + allocated + " bytes");
    return errors;
  }

  /** The expected bytes (none if {@code expected} is null), "not found", or a typed error. */
  private static int readOne(HpfReader reader, String name, byte[] expected, String context) {
    if (expected == null) {
      return inventedName(reader, name, context);
    }
    try {
      assertArrayEquals(expected, reader.get(name), context + ": wrong bytes for " + name);
      try (InputStream in = reader.open(name)) {
        assertArrayEquals(expected, in.readAllBytes(), context + ": wrong stream for " + name);
      }
      if (reader.stat(name).length() != expected.length || !reader.exists(name)) {
        throw new AssertionError(context + ": stat or exists disagrees with get for " + name);
      }
      return 0;
    } catch (FileNotInArchiveException e) {
      return 0; // a crafted index may hide a member; it may not give another's bytes
    } catch (HpfException e) {
      return 1;
    } catch (IOException | RuntimeException e) {
      throw new AssertionError(context + ": " + name + " threw an untyped " + e, e);
    }
  }

  /**
   * A name only the crafted listing gives: get, exists and stat must each deny it (not found or
   * a typed error); none may report it as a member.
   */
  private static int inventedName(HpfReader reader, String name, String context) {
    int errors = 0;
    List<Lookup> lookups = List.of(
        () -> "gave " + reader.get(name).length + " bytes",
        () -> reader.exists(name) ? "exists" : null,
        () -> "has a status: " + reader.stat(name));
    for (Lookup lookup : lookups) {
      try {
        String wrong = lookup.run();
        if (wrong != null) {
          throw new AssertionError(context + ": " + name + ", never a member, " + wrong);
        }
      } catch (FileNotInArchiveException e) {
        // denied
      } catch (HpfException e) {
        errors++;
      } catch (IOException | RuntimeException e) {
        throw new AssertionError(context + ": " + name + " threw an untyped " + e, e);
      }
    }
    return errors;
  }

  /** One lookup of an invented name: what it wrongly reported, or null. */
  @FunctionalInterface
  private interface Lookup {
    String run() throws IOException;
  }

  private static org.apache.hadoop.fs.Path hadoopPath(Path path) {
    return new org.apache.hadoop.fs.Path(path.toUri());
  }
}
