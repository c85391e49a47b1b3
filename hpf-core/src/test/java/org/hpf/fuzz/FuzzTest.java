package org.hpf.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.FileNotInArchiveException;
import org.hpf.HpfException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.JournalEntry;
import org.hpf.internal.format.JournalHeader;
import org.hpf.internal.format.JournalWriter;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.LocalTrees;
import org.hpf.testing.MemoryTempDirs;
import org.hpf.testing.ReplaySeeds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random damage to any file of an archive that has two committed generations and the journal
 * of a third that crashed: bit flips, overwritten runs, zeroed runs, truncation, extension.
 * After each mutation, recovery and every read either give exactly the expected result or throw
 * a typed hpf error; nothing hangs, nothing runs out of memory, no wrong byte is returned, and
 * the listing holds every member that reads back whole and nothing never added.
 *
 * <p>{@code -Dhpf.fuzz.mutations=N} sets the number of mutated archives (default 300; the
 * {@code long-tests} profile runs 10,000); {@code -Dhpf.fuzz.seed=S} replays one seed (failures
 * name theirs).
 */
class FuzzTest {
  /** Seeds every run tries, besides a new random one. */
  private static final long[] SEEDS = {1, 2, 3};
  private static final Configuration CONF = new Configuration();

  @TempDir(factory = MemoryTempDirs.class) Path tmp;

  @Test
  void randomDamageGivesRightBytesOrTypedErrors() throws Exception {
    int mutations = Integer.getInteger("hpf.fuzz.mutations", 300);
    ReplaySeeds seeds = ReplaySeeds.of("hpf.fuzz.seed", SEEDS);
    Map<String, byte[]> committed = new HashMap<>();
    Map<String, byte[]> crashed = new HashMap<>();
    Path template = buildTemplate(committed, crashed);
    List<Path> files;
    try (var walk = Files.walk(template)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    int typedErrors = 0;
    for (long seed : seeds.seeds()) {
      Random random = new Random(seed);
      for (int i = 0; i < seeds.share(mutations); i++) {
        Path dir = tmp.resolve("m" + (i % 4));
        LocalTrees.copy(template, dir);
        Path victim = dir.resolve(template.relativize(files.get(random.nextInt(files.size()))));
        String what = mutate(victim, random);
        String context = "mutation " + i + " (" + seeds.replay(seed) + "): " + what + " of "
            + dir.relativize(victim);
        typedErrors += assertTimeoutPreemptively(Duration.ofSeconds(60),
            () -> recoverAndRead(dir, committed, crashed, context), context);
      }
    }
    System.out.println("fuzz: " + mutations + " damaged archives, " + typedErrors
        + " typed errors raised, no wrong byte");
    assertTrue(typedErrors > 0, "no damage was ever detected: the fuzzer is not reaching data");
  }

  /** Two generations committed, a third append crashed after its journal was flushed. */
  private Path buildTemplate(Map<String, byte[]> committed, Map<String, byte[]> crashed)
      throws IOException {
    Random random = new Random(7);
    Path template = tmp.resolve("template");
    WriterOptions options = WriterOptions.builder().settings(s -> s.threads(2))
        .layout(l -> l.withBucketCapacity(16).withPartSize(24 * 1024)).journalBatch(4, 8 * 1024)
        .build();
    ArchiveCreator.create(CONF, hadoopPath(template), List.of(hadoopPath(
        sources("a", 60, random, committed))), options);
    try (ArchiveWriter writer = ArchiveWriter.open(CONF, hadoopPath(template), options)) {
      writer.append(List.of(hadoopPath(sources("b", 25, random, committed))), false);
      writer.delete(List.of("a/f1", "a/f2"));
    }
    committed.remove("a/f1");
    committed.remove("a/f2");
    // A crashed append: the journal and its part survive, no manifest.
    Path crashedCopy = tmp.resolve("crashed-append");
    LocalTrees.copy(template, crashedCopy);
    try (ArchiveWriter writer = ArchiveWriter.open(CONF, hadoopPath(crashedCopy), options)) {
      writer.append(List.of(hadoopPath(sources("c", 12, random, crashed))), false);
    }
    // Keep only what the crash would have left: the journal and parts of generation 3.
    HadoopStorage storage = new HadoopStorage(FileSystem.getLocal(CONF), hadoopPath(template),
        (short) 1);
    for (String name : new HadoopStorage(FileSystem.getLocal(CONF), hadoopPath(crashedCopy),
        (short) 1).list("")) {
      if (name.startsWith("part-") && !storage.exists(name)) {
        Files.copy(crashedCopy.resolve(name), template.resolve(name));
      }
    }
    rebuildJournal(crashedCopy, template);
    return template;
  }

  /**
   * Writes the journal the crashed append would have left, from the records of its parts' new
   * members (the real journal was deleted at its commit).
   */
  private static void rebuildJournal(Path crashedCopy, Path template) throws IOException {
    HadoopStorage source = new HadoopStorage(FileSystem.getLocal(CONF),
        hadoopPath(crashedCopy), (short) 1);
    HadoopStorage target = new HadoopStorage(FileSystem.getLocal(CONF), hadoopPath(template),
        (short) 1);
    try (HpfReader before = HpfReader.open(target, ReaderOptions.defaults());
        HpfReader after = HpfReader.open(source, ReaderOptions.defaults());
        var names = after.listEntries()) {
      Manifest base = before.manifest();
      List<JournalEntry> entries = new ArrayList<>();
      for (NameEntry entry : (Iterable<NameEntry>) names::iterator) {
        if (!before.exists(entry.name())) {
          entries.add(new JournalEntry(entry.name(), after.record(entry.name()),
              entry.mtimeMillis()));
        }
      }
      JournalHeader header = new JournalHeader(
          JournalHeader.APPEND, false, base.hashAlgorithm(), base.generation(),
          base.bucketCapacity(), base.blockSize(), base.partSize());
      try (JournalWriter journal = new JournalWriter(
          target.create(ArchiveLayout.journal(base.generation() + 1), 0),
          base.archiveId(), header)) {
        journal.append(entries);
      }
    }
  }

  /** Recovers and reads everything; returns how many typed errors were raised. */
  private static int recoverAndRead(Path dir, Map<String, byte[]> committed,
      Map<String, byte[]> crashed, String context) {
    int errors = 0;
    try {
      ArchiveWriter.recover(CONF, hadoopPath(dir), WriterOptions.builder().build());
    } catch (HpfException e) {
      errors++;
    } catch (IOException e) {
      throw new AssertionError(context + ": recovery threw an untyped " + e, e);
    }
    HpfReader reader;
    try {
      reader = HpfReader.open(CONF, hadoopPath(dir));
    } catch (HpfException e) {
      return errors + 1;
    } catch (IOException e) {
      throw new AssertionError(context + ": open threw an untyped " + e, e);
    }
    try (reader) {
      Set<String> found = new HashSet<>();
      for (Map.Entry<String, byte[]> member : committed.entrySet()) {
        errors += readOne(reader, member.getKey(), member.getValue(), context, false, found);
      }
      for (Map.Entry<String, byte[]> member : crashed.entrySet()) {
        errors += readOne(reader, member.getKey(), member.getValue(), context, true, found);
      }
      errors += readOne(reader, "a/f1", null, context, true, found);
      try (var names = reader.list()) {
        Set<String> listed = new HashSet<>();
        names.forEach(name -> {
          if (!committed.containsKey(name) && !crashed.containsKey(name)) {
            throw new AssertionError(context + ": listed " + name + ", never added");
          }
          listed.add(name);
        });
        found.removeAll(listed);
        if (!found.isEmpty()) {
          throw new AssertionError(context + ": members read but not listed: " + found);
        }
      } catch (HpfException e) {
        errors++;
      } catch (java.io.UncheckedIOException e) {
        if (!(e.getCause() instanceof HpfException)) {
          throw new AssertionError(context + ": list threw an untyped " + e, e);
        }
        errors++;
      }
    } catch (IOException e) {
      throw new AssertionError(context + ": list or close threw an untyped " + e, e);
    }
    return errors;
  }

  /**
   * Reads one name with get and open: the expected bytes or a typed error; a member may be
   * missing only if {@code mayBeAbsent} (a recovered append that damage cut short) — a
   * committed member reported missing must come with a typed error, not silently. A name read
   * whole goes into {@code found}: the listing must then hold it.
   */
  private static int readOne(HpfReader reader, String name, byte[] expected, String context,
      boolean mayBeAbsent, Set<String> found) {
    try {
      byte[] got = reader.get(name);
      if (expected == null) {
        throw new AssertionError(context + ": deleted " + name + " came back");
      }
      assertArrayEquals(expected, got, context + ": wrong bytes for " + name);
      try (InputStream in = reader.open(name)) {
        assertArrayEquals(expected, in.readAllBytes(), context + ": wrong stream for " + name);
      }
      found.add(name);
      return 0;
    } catch (FileNotInArchiveException e) {
      if (!mayBeAbsent) {
        throw new AssertionError(context + ": committed " + name + " reported missing", e);
      }
      return 0;
    } catch (HpfException e) {
      return 1;
    } catch (IOException | RuntimeException e) {
      throw new AssertionError(context + ": " + name + " threw an untyped " + e, e);
    }
  }

  private static String mutate(Path file, Random random) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    String what;
    switch (bytes.length == 0 ? 4 : random.nextInt(5)) {
      case 0 -> {
        int at = random.nextInt(bytes.length);
        bytes[at] ^= (byte) (1 << random.nextInt(8));
        what = "bit flip at " + at;
      }
      case 1 -> {
        int at = random.nextInt(bytes.length);
        int n = 1 + random.nextInt(Math.min(16, bytes.length - at));
        for (int k = 0; k < n; k++) {
          bytes[at + k] = (byte) random.nextInt(256);
        }
        what = n + " random bytes at " + at;
      }
      case 2 -> {
        int at = random.nextInt(bytes.length);
        int n = 1 + random.nextInt(Math.min(64, bytes.length - at));
        java.util.Arrays.fill(bytes, at, at + n, (byte) 0);
        what = n + " zero bytes at " + at;
      }
      case 3 -> {
        int length = random.nextInt(bytes.length);
        bytes = java.util.Arrays.copyOf(bytes, length);
        what = "truncation to " + length;
      }
      default -> {
        int extra = 1 + random.nextInt(64);
        byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + extra);
        for (int k = bytes.length; k < longer.length; k++) {
          longer[k] = (byte) random.nextInt(256);
        }
        bytes = longer;
        what = extra + " bytes appended";
      }
    }
    Files.write(file, bytes);
    return what;
  }

  private Path sources(String prefix, int count, Random random, Map<String, byte[]> into)
      throws IOException {
    Path root = tmp.resolve("src-" + prefix);
    for (int i = 0; i < count; i++) {
      byte[] bytes = new byte[random.nextInt(3000)];
      if (i % 2 == 0) {
        random.nextBytes(bytes);
      } else {
        java.util.Arrays.fill(bytes, (byte) ('k' + i % 7));
      }
      Path file = root.resolve(prefix + "/f" + i);
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
      into.put(prefix + "/f" + i, bytes);
    }
    return root;
  }

  private static org.apache.hadoop.fs.Path hadoopPath(Path path) {
    return new org.apache.hadoop.fs.Path(path.toUri());
  }
}
