package org.hpf.corruption;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.hpf.FileNotInArchiveException;
import org.hpf.HpfException;
import org.hpf.format.DirectoryFile;
import org.hpf.format.DirectoryFile.BucketRef;
import org.hpf.format.EntryHeader;
import org.hpf.format.FileFooter;
import org.hpf.format.FileHeader;
import org.hpf.format.IndexHeader;
import org.hpf.format.IndexRecord;
import org.hpf.format.Manifest;
import org.hpf.format.NameHash;
import org.hpf.format.NameHasher;
import org.hpf.read.HpfReader;
import org.hpf.read.MemberStatus;
import org.hpf.read.ReaderOptions;
import org.hpf.write.ArchiveCreator;
import org.hpf.write.WriterOptions;

/**
 * Damages the files of an archive one at a time (truncations and single-bit flips) and reads
 * every member after each damage with a fresh reader: get, open (read to the end), stat, exists,
 * plus list() and lookups of absent names.
 *
 * <p>The rule every read must follow: return exactly the right bytes or values, or throw an
 * {@link HpfException} ({@code CorruptArchiveException}, {@code ArchiveVersionException}, ...).
 * A member that exists must never be reported missing, and no other exception type may escape.
 *
 * <p>On top of that rule the sweep knows which bytes each read covers (docs/FORMAT.md: point
 * lookups check the checksums of exactly the bytes they read, whole-file reads check the footer)
 * and asserts that damage is detected by exactly the reads that touch it: a damaged manifest or
 * directory fails the open, a damaged names file fails list(), a damaged index file fails the
 * lookups of its bucket (or of the one member whose record is damaged), a damaged part entry
 * fails the reads of its member. Reads that do not touch the damaged bytes must still succeed
 * exactly; among them, every read after damage to a part's header or footer or to an index
 * file's footer, which no point lookup reads.
 */
final class CorruptionSweep {
  /** How the sweep reads and replaces an archive file (local: java.nio; HDFS: delete+create). */
  interface FileAccess {
    byte[] read(String name) throws IOException;

    void replace(String name, byte[] bytes) throws IOException;
  }

  /** Where each member lives and what its reads must return. */
  record Member(String name, byte[] bytes, MemberStatus status, int entryLength, int headerLength,
      String indexFile, int recordNumber) {}

  /** Which reads a damage must break; every other read must succeed exactly. */
  private record Expectation(boolean openFails, boolean listFails, Set<String> failGet,
      Set<String> failStat, Set<String> failExists) {
    static Expectation none() {
      return new Expectation(false, false, Set.of(), Set.of(), Set.of());
    }
  }

  private static final List<String> ABSENT =
      List.of("no-such-member", "d0/absent.bin", "zzz/ünknown", "a");

  private final FileSystem fs;
  private final Path archive;
  private final FileAccess access;
  private final Map<String, Member> members = new LinkedHashMap<>();
  private final List<String> names = new ArrayList<>();
  private final Map<String, List<Member>> byPart = new HashMap<>();
  private final Map<String, List<Member>> byIndex = new HashMap<>();
  private final Map<String, BucketRef> buckets = new HashMap<>();
  private final List<String> failures = new ArrayList<>();
  private String manifestFile;
  private String directoryFile;
  private String namesFile;
  private int mutations;
  private int reads;
  private int detected;

  CorruptionSweep(FileSystem fs, Path archive, FileAccess access) {
    this.fs = fs;
    this.archive = archive;
    this.access = access;
  }

  // ---------------------------------------------------------------- building the archive

  /** Writes {@code count} source files of mixed sizes, compressible and not, into {@code dir}. */
  static void writeSources(java.nio.file.Path dir, int count, long seed, boolean bigMember)
      throws IOException {
    Random random = new Random(seed);
    String[] dirs = {"d0", "d1/sub", "ünïcödé", "日本語", "x"};
    for (int i = 0; i < count; i++) {
      String name = dirs[i % dirs.length] + "/f-" + i + (i % 3 == 0 ? ".txt" : ".bin");
      byte[] bytes;
      int kind = i % 10;
      if (i == 0) {
        bytes = new byte[0];
      } else if (kind < 4) {
        bytes = new byte[random.nextInt(3000)]; // incompressible, small
        random.nextBytes(bytes);
      } else if (kind < 8) {
        StringBuilder text = new StringBuilder(); // compressible text
        int lines = 1 + random.nextInt(60);
        for (int l = 0; l < lines; l++) {
          text.append("line ").append(l).append(" of member ").append(i).append(": ")
              .append("lorem ipsum dolor sit amet ".repeat(1 + random.nextInt(4))).append('\n');
        }
        bytes = text.toString().getBytes(StandardCharsets.UTF_8);
      } else if (kind == 8) {
        bytes = new byte[1 + random.nextInt(40)]; // tiny
        random.nextBytes(bytes);
      } else {
        bytes = new byte[10_000 + random.nextInt(30_000)]; // larger, half compressible
        random.nextBytes(bytes);
        Arrays.fill(bytes, bytes.length / 2, bytes.length, (byte) 'q');
      }
      java.nio.file.Path file = dir.resolve(name);
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
    }
    if (bigMember) {
      // A raw member over 1 MiB: open() streams it instead of reading it whole.
      byte[] big = new byte[(1 << 20) + 12_345];
      random.nextBytes(big);
      Files.write(dir.resolve("big-raw.bin"), big);
    }
  }

  static void create(Configuration conf, java.nio.file.Path sources, Path archive,
      int bucketCapacity, long partSize) throws IOException {
    ArchiveCreator.create(conf, archive, List.of(new Path(sources.toUri())),
        WriterOptions.builder().threads(2).bucketCapacity(bucketCapacity).partSize(partSize)
            .blockSize(1 << 20).build());
  }

  // ---------------------------------------------------------------- learning the good archive

  /** Reads the undamaged archive and records every expected answer and every member's place. */
  void learn(java.nio.file.Path sources) throws IOException {
    try (HpfReader reader = open()) {
      Manifest manifest = reader.manifest();
      manifestFile = Manifest.fileName(manifest.generation());
      directoryFile = manifest.directoryFile();
      namesFile = manifest.namesFile();
      DirectoryFile directory = reader.directory();
      for (BucketRef bucket : directory.buckets()) {
        buckets.put(bucket.indexFile(), bucket);
      }
      try (Stream<String> listed = reader.list()) {
        names.addAll(listed.toList());
      }
      Map<String, List<String>> bucketMembers = new HashMap<>();
      for (String name : names) {
        NameHash hash = NameHasher.MURMUR3_128.hash(name);
        bucketMembers.computeIfAbsent(directory.bucketOf(hash).indexFile(), k -> new ArrayList<>())
            .add(name);
      }
      Map<String, Integer> recordNumbers = new HashMap<>();
      for (List<String> inBucket : bucketMembers.values()) {
        inBucket.sort(Comparator.comparing(NameHasher.MURMUR3_128::hash));
        for (int i = 0; i < inBucket.size(); i++) {
          recordNumbers.put(inBucket.get(i), i);
        }
      }
      for (String name : names) {
        byte[] bytes = Files.readAllBytes(sources.resolve(name));
        if (!Arrays.equals(bytes, reader.get(name))) {
          throw new AssertionError("undamaged archive returns wrong bytes for " + name);
        }
        MemberStatus status = reader.stat(name);
        int nameBytes = name.getBytes(StandardCharsets.UTF_8).length;
        int headerLength = EntryHeader.size(nameBytes);
        int entryLength = (int) (headerLength + status.storedLength() + EntryHeader.TRAILER_SIZE);
        String indexFile = directory.bucketOf(NameHasher.MURMUR3_128.hash(name)).indexFile();
        Member member = new Member(name, bytes, status, entryLength, headerLength, indexFile,
            recordNumbers.get(name));
        members.put(name, member);
        byPart.computeIfAbsent(org.hpf.format.ArchiveLayout.part(status.part()),
            k -> new ArrayList<>()).add(member);
        byIndex.computeIfAbsent(indexFile, k -> new ArrayList<>()).add(member);
      }
    }
  }

  /** The archive's files, relative to its root, in a stable order. */
  List<String> files() throws IOException {
    TreeSet<String> files = new TreeSet<>();
    String root = fs.makeQualified(archive).toUri().getPath();
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(archive, true);
    while (it.hasNext()) {
      String path = it.next().getPath().toUri().getPath();
      files.add(path.substring(root.length() + 1));
    }
    return new ArrayList<>(files);
  }

  Map<String, Member> members() {
    return members;
  }

  int bucketCount() {
    return buckets.size();
  }

  int partCount() {
    return byPart.size();
  }

  private HpfReader open() throws IOException {
    return HpfReader.open(fs, archive, ReaderOptions.defaults());
  }

  // ---------------------------------------------------------------- the sweep

  /**
   * Damages every file: truncations at the given points and {@code flips} single-bit flips at
   * random offsets (a few of them in the header and the footer), restoring it after each.
   */
  void sweep(List<String> files, int flips, boolean allTruncations, long seed)
      throws IOException {
    Random random = new Random(seed);
    for (String file : files) {
      byte[] original = access.read(file);
      int length = original.length;
      TreeSet<Integer> cuts = new TreeSet<>();
      if (allTruncations) {
        cuts.addAll(List.of(0, 1, FileHeader.SIZE - 1, FileHeader.SIZE, length / 2,
            length - 1, length - FileFooter.SIZE));
      } else {
        cuts.addAll(List.of(0, FileHeader.SIZE, length / 2, length - 1));
      }
      for (int cut : cuts) {
        if (cut >= 0 && cut < length) {
          damage(file, original, Arrays.copyOf(original, cut), "truncated to " + cut + " of "
              + length + " bytes", truncation(file, cut));
        }
      }
      for (int i = 0; i < flips; i++) {
        int offset;
        if (i == 0) {
          offset = random.nextInt(FileHeader.SIZE);
        } else if (i == 1) {
          offset = length - 1 - random.nextInt(FileFooter.SIZE);
        } else {
          offset = random.nextInt(length);
        }
        int bit = random.nextInt(8);
        byte[] flipped = original.clone();
        flipped[offset] ^= (byte) (1 << bit);
        damage(file, original, flipped, "bit " + bit + " of byte " + offset + " of " + length
            + " flipped", flip(file, offset, length));
      }
    }
    // Everything was restored: the archive reads as new.
    checkUndamaged();
  }

  /**
   * Flips every single bit of the manifest and of the directory in turn: both are read whole
   * when an archive is opened, so each flip must make the open fail (which keeps this cheap).
   */
  void flipEveryBitOfManifestAndDirectory() throws IOException {
    for (String file : List.of(manifestFile, directoryFile)) {
      byte[] original = access.read(file);
      for (int bit = 0; bit < 8 * original.length; bit++) {
        byte[] flipped = original.clone();
        flipped[bit / 8] ^= (byte) (1 << (bit % 8));
        damage(file, original, flipped, "bit " + bit % 8 + " of byte " + bit / 8 + " flipped",
            whole(file));
      }
    }
  }

  /** Checks every read of the archive as it is, expecting no error at all. */
  void checkUndamaged() {
    check("(undamaged archive)", "no damage", Expectation.none());
  }

  private void damage(String file, byte[] original, byte[] damaged, String what,
      Expectation expectation) throws IOException {
    mutations++;
    access.replace(file, damaged);
    try {
      check(file, what, expectation);
    } finally {
      access.replace(file, original);
    }
  }

  private static boolean isPart(String file) {
    return file.startsWith("part-");
  }

  private static boolean isIndex(String file) {
    return file.startsWith("index-");
  }

  private Set<String> namesOf(List<Member> list) {
    Set<String> set = new HashSet<>();
    for (Member member : list) {
      set.add(member.name());
    }
    return set;
  }

  private Expectation whole(String file) {
    if (file.equals(manifestFile) || file.equals(directoryFile)) {
      return new Expectation(true, false, Set.of(), Set.of(), Set.of());
    }
    if (file.equals(namesFile)) {
      return new Expectation(false, true, Set.of(), Set.of(), Set.of());
    }
    return null;
  }

  private Expectation truncation(String file, int cut) {
    Expectation whole = whole(file);
    if (whole != null) {
      return whole;
    }
    if (isPart(file)) {
      // The reader compares the part's length with the manifest's before any read of it.
      Set<String> inPart = namesOf(byPart.getOrDefault(file, List.of()));
      return new Expectation(false, false, inPart, inPart, Set.of());
    }
    if (isIndex(file)) {
      // The reader compares the index file's length with the directory's when loading a bucket.
      Set<String> inBucket = namesOf(byIndex.getOrDefault(file, List.of()));
      return new Expectation(false, false, inBucket, inBucket, inBucket);
    }
    throw new AssertionError("unexpected archive file " + file);
  }

  private Expectation flip(String file, int offset, int length) {
    Expectation whole = whole(file);
    if (whole != null) {
      return whole;
    }
    if (isPart(file)) {
      // Point reads read whole entries (get, open) or entry headers (stat); the part's own
      // header and footer are read by no lookup.
      for (Member member : byPart.getOrDefault(file, List.of())) {
        long start = member.status().partOffset();
        if (offset >= start && offset < start + member.entryLength()) {
          Set<String> get = Set.of(member.name());
          Set<String> stat = offset < start + member.headerLength() ? get : Set.of();
          return new Expectation(false, false, get, stat, Set.of());
        }
      }
      return Expectation.none();
    }
    if (isIndex(file)) {
      // Loading a bucket checks the header and the function section; a lookup checks the one
      // record it reads; the footer is read only by a whole-file verify.
      BucketRef bucket = buckets.get(file);
      long recordsOffset = new IndexHeader(bucket.recordCount(), bucket.localDepth(), 0, 0,
          bucket.functionLength()).recordsOffset();
      List<Member> inBucket = byIndex.getOrDefault(file, List.of());
      if (offset < recordsOffset) {
        Set<String> all = namesOf(inBucket);
        return new Expectation(false, false, all, all, all);
      }
      if (offset >= length - FileFooter.SIZE) {
        return Expectation.none();
      }
      int record = (int) ((offset - recordsOffset) / IndexRecord.SIZE);
      for (Member member : inBucket) {
        if (member.recordNumber() == record) {
          Set<String> one = Set.of(member.name());
          return new Expectation(false, false, one, one, one);
        }
      }
      throw new AssertionError("no member has record " + record + " of " + file);
    }
    throw new AssertionError("unexpected archive file " + file);
  }

  // ---------------------------------------------------------------- checking one damage

  /** The outcome of one read: null if it threw an allowed exception, else the failure text. */
  private static String classify(Throwable t) {
    Throwable e = t instanceof UncheckedIOException u && u.getCause() != null ? u.getCause() : t;
    if (e instanceof HpfException) {
      return null;
    }
    if (e instanceof FileNotInArchiveException) {
      return "reported missing: " + e;
    }
    return "threw " + describe(t);
  }

  private static String describe(Throwable t) {
    StringBuilder text = new StringBuilder(t.toString());
    StackTraceElement[] trace = t.getStackTrace();
    for (int i = 0; i < Math.min(4, trace.length); i++) {
      text.append("\n        at ").append(trace[i]);
    }
    if (t.getCause() != null && t.getCause() != t) {
      text.append("\n      caused by ").append(describe(t.getCause()));
    }
    return text.toString();
  }

  private void fail(String file, String what, String read, String problem) {
    if (failures.size() < 60) {
      failures.add(file + ", " + what + ": " + read + ": " + problem);
    }
  }

  /** Runs one read; returns true if it threw (an allowed exception). */
  private boolean attempt(String file, String what, String read, boolean mustFail,
      ThrowingCheck check) {
    reads++;
    try {
      String wrong = check.run();
      if (wrong != null) {
        fail(file, what, read, wrong);
      } else if (mustFail) {
        fail(file, what, read, "damage went unnoticed although this read covers it");
      }
      return false;
    } catch (Throwable t) {
      if (t instanceof VirtualMachineError && !(t instanceof OutOfMemoryError)
          && !(t instanceof StackOverflowError)) {
        throw (VirtualMachineError) t;
      }
      String problem = classify(t);
      if (problem != null) {
        fail(file, what, read, problem);
      } else if (!mustFail) {
        fail(file, what, read, "failed although it reads no damaged byte: " + t);
      } else {
        detected++;
      }
      return true;
    }
  }

  @FunctionalInterface
  private interface ThrowingCheck {
    /** Returns null when the answer is right, else what is wrong with it. */
    String run() throws Exception;
  }

  private void check(String file, String what, Expectation expect) {
    HpfReader reader;
    try {
      reader = open();
      if (expect.openFails()) {
        fail(file, what, "open", "damage went unnoticed although open reads the whole file");
      }
    } catch (Throwable t) {
      reads++;
      String problem = classify(t);
      if (problem != null) {
        fail(file, what, "open", problem);
      } else if (!expect.openFails()) {
        fail(file, what, "open", "failed although it reads no damaged byte: " + t);
      } else {
        detected++;
      }
      return;
    }
    try (reader) {
      for (Member member : members.values()) {
        String name = member.name();
        attempt(file, what, "get(" + name + ")", expect.failGet().contains(name),
            () -> Arrays.equals(member.bytes(), reader.get(name)) ? null : "wrong bytes");
        attempt(file, what, "open(" + name + ")", expect.failGet().contains(name),
            () -> Arrays.equals(member.bytes(), readAll(reader, name)) ? null : "wrong bytes");
        attempt(file, what, "stat(" + name + ")", expect.failStat().contains(name),
            () -> member.status().equals(reader.stat(name)) ? null
                : "wrong status " + reader.stat(name) + ", expected " + member.status());
        attempt(file, what, "exists(" + name + ")", expect.failExists().contains(name),
            () -> reader.exists(name) ? null : "says the member does not exist");
      }
      for (String absent : ABSENT) {
        attemptAbsent(file, what, absent, reader);
      }
      attempt(file, what, "list()", expect.listFails(), () -> {
        try (Stream<String> listed = reader.list()) {
          List<String> got = listed.toList();
          return got.equals(names) ? null : "wrong listing (" + got.size() + " names)";
        }
      });
    } catch (IOException e) {
      fail(file, what, "close", "threw " + describe(e));
    }
  }

  /** A name that is not a member: not found, or an allowed exception; never bytes. */
  private void attemptAbsent(String file, String what, String absent, HpfReader reader) {
    List<ThrowingCheck> reads = List.of(
        () -> "returned " + reader.get(absent).length + " bytes",
        () -> {
          try (InputStream in = reader.open(absent)) {
            return "opened a stream";
          }
        },
        () -> "returned " + reader.stat(absent),
        () -> reader.exists(absent) ? "says it exists" : null);
    for (int i = 0; i < reads.size(); i++) {
      this.reads++;
      try {
        String wrong = reads.get(i).run();
        if (wrong != null) {
          fail(file, what, "absent '" + absent + "' read " + i, wrong);
        }
      } catch (FileNotInArchiveException expected) {
        // right
      } catch (Throwable t) {
        if (!(t instanceof HpfException)) {
          fail(file, what, "absent '" + absent + "' read " + i, "threw " + describe(t));
        }
      }
    }
  }

  private static byte[] readAll(HpfReader reader, String name) throws IOException {
    try (InputStream in = reader.open(name)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      // Mix single-byte and bulk reads.
      int first = in.read();
      if (first >= 0) {
        out.write(first);
        int n;
        while ((n = in.read(buffer, 0, buffer.length)) >= 0) {
          out.write(buffer, 0, n);
        }
      }
      if (in.read() != -1) {
        return new byte[0];
      }
      return out.toByteArray();
    }
  }

  // ---------------------------------------------------------------- results

  List<String> failures() {
    return failures;
  }

  String summary() {
    return mutations + " damaged archives, " + reads + " reads, " + detected
        + " of them reported the damage as expected, " + failures.size() + " failures";
  }

  // ---------------------------------------------------------------- file access

  /** Local file system: files are replaced in place with java.nio (no checksum side files). */
  static FileAccess local(java.nio.file.Path root) {
    return new FileAccess() {
      @Override
      public byte[] read(String name) throws IOException {
        return Files.readAllBytes(root.resolve(name));
      }

      @Override
      public void replace(String name, byte[] bytes) throws IOException {
        Files.write(root.resolve(name), bytes);
      }
    };
  }

  /** Any Hadoop file system (HDFS): files cannot be rewritten, so delete and create. */
  static FileAccess hadoop(FileSystem fs, Path root) {
    return new FileAccess() {
      @Override
      public byte[] read(String name) throws IOException {
        Path path = new Path(root, name);
        byte[] bytes = new byte[(int) fs.getFileStatus(path).getLen()];
        try (var in = fs.open(path)) {
          in.readFully(0, bytes);
        }
        return bytes;
      }

      @Override
      public void replace(String name, byte[] bytes) throws IOException {
        Path path = new Path(root, name);
        org.apache.hadoop.fs.FileStatus status = fs.getFileStatus(path);
        if (!fs.delete(path, false)) {
          throw new IOException("could not delete " + path);
        }
        try (FSDataOutputStream out = fs.create(path, false, 64 * 1024, status.getReplication(),
            status.getBlockSize())) {
          out.write(bytes);
        }
      }
    };
  }
}
