package org.hpf.battery;

import static org.hpf.battery.ArchiveAssertions.assertMember;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.ArchiveLockedException;
import org.hpf.Compression;
import org.hpf.FileNotInArchiveException;
import org.hpf.NameConflictException;
import org.hpf.NameExistsException;
import org.hpf.StaleGenerationException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.MemberNames;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.format.NameHash;
import org.hpf.internal.format.NameHasher;
import org.hpf.internal.index.BucketFunction;
import org.hpf.internal.index.IndexFileReader;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.read.ArchiveVerifier;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.ChangeResult;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Changes to existing archives ({@link ArchiveWriter}: append, delete, compact) checked against
 * an in-memory model of what the archive must hold, run on the local file system and (with
 * smaller sizes) on a MiniDFSCluster by the subclasses. After every change a fresh reader must
 * return exactly the model through get, open, stat, exists, list and listEntries (names, lengths,
 * mtimes); deleted names must be absent; the index layers and names segments must follow the
 * policy of docs/FORMAT.md; {@link ArchiveVerifier} must find no problem; and the archive
 * directory must hold exactly the files of the kept generations.
 *
 * <p>Randomized content, names and operations come from {@link Seeds}: {@code -Dhpf.test.seed=N}
 * replays a failing run.
 */
abstract class MutationBattery extends BatteryBase {
  private int sourceDirs;
  private final List<Path> archives = new ArrayList<>();
  private final Map<Path, Integer> retained = new HashMap<>();

  MutationBattery(Place place) {
    super(place, "mutation ");
  }

  // ---- the model ---------------------------------------------------------------------------

  /** What the archive must hold: its members, and names that were deleted (and not re-added). */
  static final class Model {
    final TreeMap<String, TestTree.Member> members = new TreeMap<>(MemberNames.ORDER);
    final Set<String> gone = new TreeSet<>(MemberNames.ORDER);

    void add(TestTree tree) {
      for (TestTree.Member m : tree.members().values()) {
        members.put(m.name(), m);
        gone.remove(m.name());
      }
    }

    void delete(Collection<String> names) {
      for (String name : names) {
        assertNotNull(members.remove(name), "model: deleting a non-member " + name);
        gone.add(name);
      }
    }

    Model copy() {
      Model copy = new Model();
      copy.members.putAll(members);
      copy.gone.addAll(gone);
      return copy;
    }

    long totalBytes() {
      return members.values().stream().mapToLong(m -> m.bytes().length).sum();
    }
  }

  // ---- helpers -----------------------------------------------------------------------------

  protected Path archivePath(String label) {
    Path archive = new Path(archiveRoot(), label + ".hpf");
    archives.add(archive);
    return archive;
  }

  /** Archives whose writers keep more than the default two generations. */
  protected void retains(Path archive, int generations) {
    retained.put(archive, generations);
  }

  /** Writes {@code tree} to a new local folder and returns it as a source root. */
  protected Path sources(TestTree tree) throws IOException {
    java.nio.file.Path dir = tmp.resolve("src-" + sourceDirs++);
    tree.writeLocal(dir);
    return new Path(dir.toUri());
  }

  protected HadoopStorage storage(Path archive) throws IOException {
    return new HadoopStorage(archive.getFileSystem(conf()), archive, (short) 0);
  }

  protected ArchiveWriter writer(Path archive, WriterOptions options) throws IOException {
    return ArchiveWriter.open(conf(), archive, options);
  }

  /** Creates an archive of {@code tree} and returns the model of it. */
  protected Model create(Path archive, TestTree tree, WriterOptions options) throws IOException {
    ArchiveCreator.create(conf(), archive, List.of(sources(tree)), options);
    Model model = new Model();
    model.add(tree);
    return model;
  }

  /** {@code count} new files, named under {@code prefix} so they cannot clash with others. */
  protected TestTree newFiles(String prefix, int count, int maxSize) {
    TestTree tree = new TestTree();
    Random r = random;
    while (tree.size() < count) {
      int size = r.nextInt(4) == 0 ? r.nextInt(maxSize + 1) : r.nextInt(Math.min(64, maxSize) + 1);
      tree.add(prefix + "/" + TestTree.name(r, 1 + r.nextInt(3)), TestTree.content(r, size),
          TestTree.mtime(r));
    }
    return tree;
  }

  /** New content (and mtime) for {@code count} random members of the model. */
  protected TestTree replacements(Model model, int count, int maxSize) {
    List<String> names = new ArrayList<>(model.members.keySet());
    TestTree tree = new TestTree();
    Random r = random;
    for (int tries = 0; tree.size() < Math.min(count, names.size()) && tries < 10 * count;
        tries++) {
      String name = names.get(r.nextInt(names.size()));
      byte[] bytes = TestTree.content(r, r.nextInt(maxSize + 1));
      tree.add(name, bytes, TestTree.mtime(r));
    }
    return tree;
  }

  protected List<String> pickMembers(Model model, int count) {
    List<String> names = new ArrayList<>(model.members.keySet());
    java.util.Collections.shuffle(names, random);
    return new ArrayList<>(names.subList(0, Math.min(count, names.size())));
  }

  /** Every file in the archive directory, relative to it, with its length. */
  protected Map<String, Long> listFiles(Path archive) throws IOException {
    FileSystem fs = archiveFs();
    Map<String, Long> files = new TreeMap<>();
    for (FileStatus status : fs.listStatus(archive)) {
      if (status.isDirectory()) {
        for (FileStatus inner : fs.listStatus(status.getPath())) {
          files.put(status.getPath().getName() + "/" + inner.getPath().getName(), inner.getLen());
        }
      } else {
        files.put(status.getPath().getName(), status.getLen());
      }
    }
    return files;
  }

  /**
   * The archive directory holds the manifests of the newest {@code retain} generations and
   * exactly the files they name (no lock, journal, temporary manifest or leftover).
   */
  protected void assertOnlyKeptGenerations(Path archive, int retain) throws IOException {
    HadoopStorage storage = storage(archive);
    long newest = HpfReader.newestGeneration(storage);
    Set<String> expected = new TreeSet<>();
    for (long g = Math.max(1, newest - retain + 1); g <= newest; g++) {
      Manifest manifest = Manifest.read(storage, g);
      expected.add(Manifest.fileName(g));
      manifest.layers().stream().map(Manifest.Layer::directoryFile)
          .filter(java.util.Objects::nonNull).forEach(expected::add); // version 1 manifests
      manifest.namesSegments().forEach(s -> expected.add(s.file()));
      manifest.parts().forEach(p -> expected.add(ArchiveLayout.part(p.id())));
      for (DirectoryFile directory : manifest.readDirectories(storage)) {
        for (BucketRef bucket : directory.buckets()) {
          if (bucket.recordCount() > 0) {
            expected.add(bucket.indexFile());
          }
        }
      }
    }
    Set<String> actual = new TreeSet<>(listFiles(archive).keySet());
    // The lock of the writer that may be open: at the end of each test none is left.
    actual.remove(ArchiveLayout.LOCK);
    assertEquals(expected, actual, "files of " + archive + " at generation " + newest + " "
        + Seeds.describe());
  }

  /** Every archive of the test: its writers are closed, so its lock is gone. */
  @AfterEach
  void noLockLeftBehind() throws IOException {
    for (Path archive : archives) {
      if (archiveFs().exists(archive)) {
        assertFalse(listFiles(archive).containsKey(ArchiveLayout.LOCK), "lock left in " + archive);
        assertOnlyKeptGenerations(archive, retained.getOrDefault(archive, 2));
      }
    }
  }

  /**
   * The archive, read by a fresh reader, is exactly the model; deleted names are absent; the
   * layers and segments follow the policy; verify finds nothing; only kept files remain.
   */
  protected void assertArchiveIs(Path archive, Model model) throws IOException {
    try (HpfReader reader = open(archive)) {
      assertReaderSees(reader, model);
      assertLayers(archive, reader, model);
    }
    assertVerifies(archive);
    assertOnlyKeptGenerations(archive, 2);
  }

  /** What a reader returns is exactly the model (whatever its generation). */
  protected static void assertReaderSees(HpfReader reader, Model model) throws IOException {
    String seed = Seeds.describe();
    List<String> names;
    try (Stream<String> listed = reader.list()) {
      names = listed.toList();
    }
    assertEquals(new ArrayList<>(model.members.keySet()), names, "list() " + seed);
    List<NameEntry> expected = new ArrayList<>();
    for (TestTree.Member m : model.members.values()) {
      expected.add(NameEntry.present(m.name(), m.bytes().length, m.mtimeMillis()));
    }
    List<NameEntry> listed;
    try (Stream<NameEntry> entries = reader.listEntries()) {
      listed = entries.toList();
    }
    assertEquals(expected, listed.stream().map(e -> NameEntry.present(e.name(), e.length(),
        e.mtimeMillis())).toList(), "listEntries() " + seed);
    // Every member of a format 4 archive records an access class its manifest holds.
    for (NameEntry entry : listed) {
      assertTrue(entry.access() > 0, entry.name() + " records no access " + seed);
      assertNotNull(reader.manifest().access(entry.access(), reader.location()), entry.name());
    }
    // Every member the current writer added, replaced or moved is located by its names entry,
    // exactly where its index record says.
    for (NameEntry entry : listed) {
      assertEquals(org.hpf.internal.format.EntryLocation.of(reader.record(entry.name())),
          entry.location(), "location of '" + entry.name() + "' " + seed);
    }
    for (TestTree.Member m : model.members.values()) {
      assertMember(reader, m);
    }
    for (String name : model.gone) {
      assertFalse(reader.exists(name), "deleted '" + name + "' exists " + seed);
      assertNull(reader.record(name), "deleted '" + name + "' has a record " + seed);
      assertThrows(FileNotInArchiveException.class, () -> reader.get(name), name + " " + seed);
      assertThrows(FileNotInArchiveException.class, () -> reader.open(name), name + " " + seed);
      assertThrows(FileNotInArchiveException.class, () -> reader.stat(name), name + " " + seed);
    }
    Manifest manifest = reader.manifest();
    assertEquals(model.members.size(), manifest.fileCount(), "file count " + seed);
    assertEquals(model.totalBytes(), manifest.originalBytes(), "original bytes " + seed);
  }

  /**
   * The index layers and names segments of the reader's generation: every layer a valid
   * extendible-hashing directory whose buckets hold at most the capacity, each record in the
   * bucket its hash leads to; the base written with codec 1 and without tombstones, the newer
   * layers with codec 2; each layer (and segment) smaller than a quarter of the one below; the
   * records resolved newest-first are exactly the model's names.
   */
  protected void assertLayers(Path archive, HpfReader reader, Model model) throws IOException {
    String seed = Seeds.describe();
    HadoopStorage storage = storage(archive);
    Manifest manifest = reader.manifest();
    List<DirectoryFile> layers = reader.layers();
    assertEquals(manifest.layers().size(), layers.size());
    assertTrue(reader.directory() == layers.get(0), "directory() is the base layer");
    Map<NameHash, IndexRecord> effective = new HashMap<>();
    for (int layer = 0; layer < layers.size(); layer++) {
      DirectoryFile dir = layers.get(layer);
      assertDirectoryShape(dir, manifest.bucketCapacity(), "layer " + layer + " " + seed);
      long records = 0;
      for (BucketRef ref : dir.buckets()) {
        records += ref.recordCount();
        if (ref.recordCount() == 0) {
          assertEquals(new BucketRef(ref.localDepth(), 0, 0, 0, 0, 0), ref, "empty bucket");
          continue;
        }
        try (ArchiveInput in = storage.open(ref.indexFile())) {
          int codec = in.readFully(FileHeader.SIZE + 10, 1)[0];
          assertEquals(layer == 0 ? BucketFunction.CODEC_DISTINGUISHING_BITS
              : BucketFunction.CODEC_DISTINGUISHING_BITS_FINGERPRINTS, codec,
              ref.indexFile() + " of layer " + layer);
        }
        for (IndexRecord record : IndexFileReader.readRecords(storage, manifest.archiveId(),
            ref)) {
          assertTrue(dir.bucketOf(record.hash()) == ref, "record in its bucket " + seed);
          if (record.isTombstone()) {
            // (A tombstone may hide nothing: one folded together with the layer that held the
            // name it deleted stays until the records reach the base.)
            assertTrue(layer > 0, "the base keeps no tombstones " + seed);
            effective.remove(record.hash());
          } else {
            effective.put(record.hash(), record);
          }
        }
      }
      assertEquals(manifest.layers().get(layer).records(), records, "records of layer " + layer);
      if (layer > 0) {
        assertTrue(records * 4 < manifest.layers().get(layer - 1).records(), "layer " + layer
            + " holds " + records + " records, not less than a quarter of the layer below ("
            + manifest.layers().get(layer - 1).records() + ") " + seed);
      }
    }
    Set<NameHash> hashes = new HashSet<>();
    for (String name : model.members.keySet()) {
      hashes.add(NameHasher.forAlgorithm(manifest.hashAlgorithm()).hash(name));
    }
    assertEquals(hashes, effective.keySet(), "records resolved over the layers " + seed);
    List<Manifest.NamesSegment> segments = manifest.namesSegments();
    assertTrue(!segments.isEmpty(), "names segments");
    for (int s = 1; s < segments.size(); s++) {
      assertTrue(segments.get(s).entries() * 4 < segments.get(s - 1).entries(), "segment " + s
          + " of " + segments + " is not less than a quarter of the one before " + seed);
    }
  }

  /** The extendible-hashing invariants of docs/FORMAT.md ("Directory"). */
  static void assertDirectoryShape(DirectoryFile dir, int capacity, String what) {
    int g = dir.globalDepth();
    assertTrue(g >= 0 && g <= DirectoryFile.MAX_DEPTH, what + ": global depth " + g);
    assertEquals(1 << g, dir.slots().length, what + ": slots");
    int[] pointers = new int[dir.buckets().size()];
    int[] low = new int[dir.buckets().size()];
    Arrays.fill(low, -1);
    int maxDepth = 0;
    for (int slot = 0; slot < dir.slots().length; slot++) {
      int b = dir.slots()[slot];
      int d = dir.buckets().get(b).localDepth();
      int bits = slot & ((1 << d) - 1);
      if (low[b] == -1) {
        low[b] = bits;
      }
      assertEquals(low[b], bits, what + ": slots of bucket " + b + " disagree");
      pointers[b]++;
    }
    for (int b = 0; b < dir.buckets().size(); b++) {
      BucketRef ref = dir.buckets().get(b);
      assertEquals(1 << (g - ref.localDepth()), pointers[b], what + ": slots of bucket " + b);
      assertTrue(ref.recordCount() <= capacity, what + ": bucket " + b + " over capacity");
      maxDepth = Math.max(maxDepth, ref.localDepth());
    }
    assertEquals(maxDepth, g, what + ": global depth is the deepest bucket's");
  }

  protected void assertVerifies(Path archive) throws IOException {
    ArchiveVerifier.Report report = ArchiveVerifier.verify(storage(archive),
        ReaderOptions.defaults(), bytes -> {});
    assertTrue(report.ok(), "verify: " + report.problems() + " " + Seeds.describe());
    try (HpfReader reader = open(archive)) {
      assertEquals(reader.manifest().fileCount(), report.members(), "verified members");
    }
  }

  // ---- append ------------------------------------------------------------------------------

  /**
   * An append adds new names; an append that brings an existing name fails without replace
   * (NameExistsException, nothing committed, no journal or part left behind) and replaces it
   * with replace: the new bytes and mtime win, the other members are untouched.
   */
  @Test
  void appendAddsNamesAndReplacesOnlyWhenAsked() throws IOException {
    Path archive = archivePath("append");
    WriterOptions options = WriterOptions.builder().layout(l -> l.withBucketCapacity(pick(16, 8))
        .withPartSize(64 * 1024)).build();
    Model model = create(archive, newFiles("base", pick(120, 40), 3000), options);
    assertArchiveIs(archive, model);
    try (ArchiveWriter writer = writer(archive, options)) {
      assertEquals(1, writer.manifest().generation());
      TestTree added = newFiles("added", pick(25, 8), 5000);
      ChangeResult result = writer.append(List.of(sources(added)), false);
      model.add(added);
      assertEquals(2, result.generation());
      assertEquals(added.size(), result.filesAdded());
      assertEquals(0, result.filesReplaced());
      assertEquals(model.members.size(), result.fileCount());
      assertEquals(2, writer.manifest().generation());
      assertArchiveIs(archive, model);

      // New names and existing ones together: without replace, nothing changes.
      TestTree mixed = replacements(model, pick(6, 3), 2000);
      int clashes = mixed.size();
      TestTree fresh = newFiles("fresh", pick(5, 2), 500);
      fresh.members().values().forEach(m -> mixed.addOrFail(m.name(), m.bytes(), m.mtimeMillis()));
      Path mixedSources = sources(mixed);
      Map<String, Long> before = listFiles(archive);
      NameExistsException e = assertThrows(NameExistsException.class,
          () -> writer.append(List.of(mixedSources), false));
      assertTrue(e.getMessage().contains(clashes + " of the names"), e.getMessage());
      assertTrue(e.getMessage().contains(mixed.members().keySet().stream()
          .filter(model.members::containsKey).findFirst().orElseThrow()), e.getMessage());
      assertEquals(before, listFiles(archive), "a refused append writes nothing");
      assertEquals(2, writer.manifest().generation());
      assertArchiveIs(archive, model);

      // With replace: the new versions win.
      result = writer.append(List.of(mixedSources), true);
      model.add(mixed);
      assertEquals(3, result.generation());
      assertEquals(clashes, result.filesReplaced());
      assertEquals(mixed.size() - clashes, result.filesAdded());
      assertEquals(model.members.size(), result.fileCount());
      assertArchiveIs(archive, model);
    }
    // The lock is released: another writer can open it; two at once cannot.
    try (ArchiveWriter writer = writer(archive, options)) {
      assertThrows(ArchiveLockedException.class, () -> writer(archive, options).close());
      assertEquals(3, writer.manifest().generation());
    }
  }

  /**
   * A name cannot be a file and a directory at once ({@code a/b} and {@code a/b/c}): a create,
   * an append through the API or of two source roots, each bringing such a pair, or bringing one
   * half of a pair whose other half the archive has, fails with NameConflictException before it
   * commits, and the archive stays exactly as it was. A deleted name no longer counts.
   */
  @Test
  void aNameIsNeverAFileAndADirectory() throws IOException {
    WriterOptions options = WriterOptions.builder().layout(l -> l.withBucketCapacity(8)).build();
    byte[] bytes = {1, 2, 3};
    // Names between the file and the one below it ('.' and '-' sort before '/').
    Path refused = archivePath("conflict-create");
    try (ArchiveWriter writer = ArchiveWriter.create(conf(), refused, options)) {
      for (String name : List.of("a/b", "a/b.txt", "a/b-1/x", "a/b/c")) {
        writer.add(name, bytes, 0);
      }
      NameConflictException e = assertThrows(NameConflictException.class, writer::commit);
      assertTrue(e.getMessage().contains("'a/b'") && e.getMessage().contains("'a/b/c'"),
          e.getMessage());
    }
    assertFalse(archiveFs().exists(refused), "a refused create leaves nothing");

    Path archive = archivePath("conflict-append");
    TestTree tree = new TestTree();
    for (String name : List.of("x/y", "x/y.txt", "p/q/r", "p/q.txt", "m/n")) {
      tree.addOrFail(name, bytes, 0);
    }
    Model model = create(archive, tree, options);
    String[][] pairs = {
        {"x/y/z", "the archive has 'x/y'"}, {"x/y/z/w", "the archive has 'x/y'"},
        {"p/q", "the archive has 'p/q/r'"}, {"p", "the archive has 'p/q.txt'"},
    };
    try (ArchiveWriter writer = writer(archive, options)) {
      for (String[] pair : pairs) {
        Map<String, Long> before = listFiles(archive);
        writer.add("fresh/1", bytes, 0);
        writer.add(pair[0], bytes, 0);
        NameConflictException e = assertThrows(NameConflictException.class, writer::commit,
            pair[0]);
        assertTrue(e.getMessage().contains(pair[1]), e.getMessage());
        assertEquals(before, listFiles(archive), pair[0] + ": a refused append writes nothing");
        assertArchiveIs(archive, model);
      }
      TestTree rootA = new TestTree();
      rootA.addOrFail("d/e", bytes, 0);
      TestTree rootB = new TestTree();
      rootB.addOrFail("d/e/f", bytes, 0);
      List<Path> roots = List.of(sources(rootA), sources(rootB));
      assertThrows(NameConflictException.class, () -> writer.append(roots, false));
      assertArchiveIs(archive, model);

      // Replacing a file by a file is no conflict; once 'x/y' is deleted, 'x/y/z' may come.
      TestTree replacement = new TestTree();
      replacement.addOrFail("x/y", new byte[] {9}, 5);
      writer.append(List.of(sources(replacement)), true);
      model.add(replacement);
      writer.delete(List.of("x/y"));
      model.delete(List.of("x/y"));
      TestTree below = new TestTree();
      below.addOrFail("x/y/z", bytes, 0);
      writer.append(List.of(sources(below)), false);
      model.add(below);
    }
    assertArchiveIs(archive, model);
  }

  // ---- delete ------------------------------------------------------------------------------

  /**
   * A delete is all or nothing: one name the archive lacks fails it with
   * FileNotInArchiveException and nothing is deleted; otherwise every listed name goes
   * (duplicates in the list count once), and a deleted name can be appended again.
   */
  @Test
  void deleteIsAllOrNothing() throws IOException {
    Path archive = archivePath("delete");
    WriterOptions options = WriterOptions.builder().layout(l -> l.withBucketCapacity(pick(16, 8)))
        .build();
    Model model = create(archive, newFiles("base", pick(150, 40), 2000), options);
    try (ArchiveWriter writer = writer(archive, options)) {
      List<String> doomed = pickMembers(model, pick(12, 4));
      List<String> withMissing = new ArrayList<>(doomed);
      withMissing.add(doomed.size() / 2, "no/such/member");
      Map<String, Long> before = listFiles(archive);
      FileNotInArchiveException e = assertThrows(FileNotInArchiveException.class,
          () -> writer.delete(withMissing));
      assertTrue(e.getMessage().contains("no/such/member"), e.getMessage());
      assertEquals(before, listFiles(archive), "a refused delete writes nothing");
      assertArchiveIs(archive, model);
      // A name deleted twice in one call, or already deleted, is missing too.
      List<String> twice = new ArrayList<>(doomed);
      twice.add(doomed.get(0));
      ChangeResult result = writer.delete(twice);
      model.delete(doomed);
      assertEquals(doomed.size(), result.filesDeleted());
      assertEquals(model.members.size(), result.fileCount());
      assertEquals(2, result.generation());
      assertArchiveIs(archive, model);
      assertThrows(FileNotInArchiveException.class, () -> writer.delete(List.of(doomed.get(1))));
      assertArchiveIs(archive, model);
      // Deleted names come back with an append (no replace needed), with new bytes.
      TestTree again = new TestTree();
      for (String name : doomed.subList(0, doomed.size() / 2)) {
        again.addOrFail(name, TestTree.content(random, 100), TestTree.mtime(random));
      }
      writer.append(List.of(sources(again)), false);
      model.add(again);
      assertArchiveIs(archive, model);
      // Deleting everything leaves an empty archive that lists nothing.
      List<String> all = new ArrayList<>(model.members.keySet());
      writer.delete(all);
      model.delete(all);
      assertArchiveIs(archive, model);
    }
  }

  // ---- compaction --------------------------------------------------------------------------

  /**
   * Compaction rewrites exactly the parts whose live fraction is below the threshold (their live
   * entries copied into new, full parts), keeps the other parts as they are, merges every layer
   * into the base and every names segment into one; the contents do not change; the dropped
   * parts disappear once no kept generation names them.
   */
  @Test
  void compactionRewritesSparsePartsAndMergesLayersAndNames() throws IOException {
    Path archive = archivePath("compact");
    WriterOptions options = WriterOptions.builder().settings(s -> s.threads(1)
        .compression(Compression.NONE)).layout(l -> l.withBucketCapacity(pick(12, 8))
        .withPartSize(pick(8, 4) * 1024)).build();
    Model model = create(archive, newFiles("base", pick(200, 60), 1500), options);
    try (ArchiveWriter writer = writer(archive, options)) {
      // Empty most of the even parts; then appends and deletes add layers and segments.
      List<String> doomed = new ArrayList<>();
      try (HpfReader reader = open(archive)) {
        // Keep members of an even part only while it stays under 40% live, whatever their
        // sizes: every even part becomes sparse, and enough members stay for later changes to
        // make layers of their own.
        java.util.Map<Integer, Long> keptBytes = new java.util.HashMap<>();
        for (String name : model.members.keySet()) {
          org.hpf.internal.format.IndexRecord record = reader.record(name);
          if (record.part() % 2 != 0) {
            continue;
          }
          long room = reader.manifest().part(record.part()).length() - 36;
          long kept = keptBytes.getOrDefault(record.part(), 0L);
          if (kept + record.entryLength() < 0.4 * room) {
            keptBytes.put(record.part(), kept + record.entryLength());
          } else {
            doomed.add(name);
          }
        }
      }
      writer.delete(doomed);
      model.delete(doomed);
      TestTree added = newFiles("added", pick(10, 4), 1000);
      writer.append(List.of(sources(added)), false);
      model.add(added);
      List<String> few = pickMembers(model, 2);
      writer.delete(few);
      model.delete(few);
      assertArchiveIs(archive, model);
      Manifest before = writer.manifest();
      assertTrue(before.layers().size() > 1 || before.namesSegments().size() > 1,
          "something to merge: " + before.layers() + " " + before.namesSegments());
      List<Manifest.PartInfo> sparse = new ArrayList<>();
      List<Manifest.PartInfo> dense = new ArrayList<>();
      for (Manifest.PartInfo part : before.parts()) {
        (part.liveFraction() < 0.5 ? sparse : dense).add(part);
      }
      assertTrue(sparse.size() >= 2, "sparse parts: " + before.parts());
      assertTrue(!dense.isEmpty(), "dense parts: " + before.parts());

      ChangeResult result = writer.compact(0.5);
      assertEquals(sparse.size(), result.partsRemoved());
      assertTrue(result.partsWritten() >= 1, "parts written: " + result);
      assertEquals(model.members.size(), result.fileCount());
      Manifest after = writer.manifest();
      assertEquals(1, after.layers().size(), "every layer merged into the base");
      assertEquals(1, after.namesSegments().size(), "names merged into one segment");
      Set<Integer> sparseIds = new HashSet<>();
      sparse.forEach(p -> sparseIds.add(p.id()));
      for (Manifest.PartInfo part : dense) {
        assertEquals(part, after.part(part.id()), "a dense part is kept as it was");
      }
      for (Manifest.PartInfo part : after.parts()) {
        assertFalse(sparseIds.contains(part.id()), "sparse part " + part.id() + " dropped");
        if (before.part(part.id()) == null) {
          assertEquals(part.length() - 36, part.liveBytes(), "a new part is all live: " + part);
        }
        assertTrue(part.liveFraction() >= 0.5, "live fraction of " + part);
      }
      try (HpfReader reader = open(archive)) {
        for (String name : model.members.keySet()) {
          assertFalse(sparseIds.contains(reader.stat(name).part()), name + " moved");
        }
      }
      assertArchiveIs(archive, model);
      // The pre-compaction generation is still kept; one more commit lets its parts go.
      for (int id : sparseIds) {
        assertTrue(archiveFs().exists(new Path(archive, ArchiveLayout.part(id))));
      }
      List<String> one = pickMembers(model, 1);
      writer.delete(one);
      model.delete(one);
      for (int id : sparseIds) {
        assertFalse(archiveFs().exists(new Path(archive, ArchiveLayout.part(id))),
            "dropped part " + id + " removed");
      }
      assertArchiveIs(archive, model);
      // Nothing below the threshold: no part is rewritten.
      ChangeResult idle = writer.compact(0.0);
      assertEquals(0, idle.partsRemoved());
      assertEquals(0, idle.partsWritten());
      assertArchiveIs(archive, model);
      for (double bad : new double[] {-0.1, 1.01, Double.NaN}) {
        assertThrows(IllegalArgumentException.class, () -> writer.compact(bad));
      }
    }
  }

  // ---- layered lookups against a model -----------------------------------------------------

  /**
   * Random appends (new names, replacements with and without replace), deletes (including of
   * names appended or replaced earlier, and re-appends of deleted names) and an occasional
   * compaction; after every step a fresh reader must see exactly the model, through every layer
   * the policy leaves. Small buckets make merges into the base split buckets.
   */
  @Test
  void randomChangesMatchTheModel() throws IOException {
    Random r = random;
    Path archive = archivePath("random");
    WriterOptions options = WriterOptions.builder().layout(l -> l.withBucketCapacity(pick(10, 8))
        .withPartSize(32 * 1024)).build();
    Model model = create(archive, newFiles("base", pick(250, 40), 2000), options);
    int rounds = pick(14, 4);
    int maxLayers = 1;
    int maxSegments = 1;
    try (ArchiveWriter writer = writer(archive, options)) {
      for (int round = 0; round < rounds; round++) {
        int op = r.nextInt(10);
        String what;
        if (op < 5) {
          TestTree tree = newFiles("r" + round, 1 + r.nextInt(pick(30, 8)), 3000);
          boolean replace = r.nextBoolean();
          if (replace) {
            TestTree replaced = replacements(model, 1 + r.nextInt(pick(8, 3)), 3000);
            replaced.members().values().forEach(m -> tree.add(m.name(), m.bytes(),
                m.mtimeMillis()));
          }
          if (!model.gone.isEmpty() && r.nextBoolean()) {
            String back = new ArrayList<>(model.gone).get(r.nextInt(model.gone.size()));
            tree.add(back, TestTree.content(r, r.nextInt(500)), TestTree.mtime(r));
          }
          writer.append(List.of(sources(tree)), replace);
          model.add(tree);
          what = "append of " + tree.size() + (replace ? " with replace" : "");
        } else if (op < 9) {
          List<String> doomed = pickMembers(model, 1 + r.nextInt(pick(15, 4)));
          writer.delete(doomed);
          model.delete(doomed);
          what = "delete of " + doomed.size();
        } else {
          writer.compact(0.7);
          what = "compaction";
        }
        try (HpfReader reader = open(archive)) {
          maxLayers = Math.max(maxLayers, reader.layers().size());
          maxSegments = Math.max(maxSegments, reader.manifest().namesSegments().size());
          assertEquals(writer.manifest().generation(), reader.generation(), what);
          assertReaderSees(reader, model);
          assertLayers(archive, reader, model);
        }
        if (round % 3 == 2 || round == rounds - 1) {
          assertVerifies(archive);
          assertOnlyKeptGenerations(archive, 2);
        }
      }
    }
    assertTrue(maxLayers >= 2, "the changes made index layers: " + maxLayers + " "
        + Seeds.describe());
    System.out.println("random changes: up to " + maxLayers + " layers, " + maxSegments
        + " names segments, " + model.members.size() + " members " + Seeds.describe());
  }

  // ---- readers across commits --------------------------------------------------------------

  /**
   * A reader keeps reading the generation it opened while writers commit newer ones;
   * reopenIfChanged gives a reader of the newest (and null when there is none newer). Once two
   * newer generations exist, a read of the old generation returns its exact bytes or throws
   * StaleGenerationException; never other bytes, "not found" or another error.
   */
  @Test
  void readersKeepTheirGenerationAcrossCommits() throws IOException {
    Path archive = archivePath("readers");
    WriterOptions options = WriterOptions.builder().layout(l -> l.withBucketCapacity(8)
        .withPartSize(16 * 1024)).build();
    Model first = create(archive, newFiles("base", pick(80, 30), 1500), options);
    HpfReader old = open(archive);
    HpfReader untouched = open(archive);
    try {
      assertEquals(1, old.generation());
      assertNull(old.reopenIfChanged(), "nothing newer yet");
      assertReaderSees(old, first); // opens every bucket and part of generation 1
      Model second = first.copy();
      try (ArchiveWriter writer = writer(archive, options)) {
        // Enough records to merge into the base: base buckets are rewritten.
        TestTree more = newFiles("more", pick(40, 15), 1500);
        TestTree changed = replacements(first, 5, 800);
        changed.members().values().forEach(m -> more.add(m.name(), m.bytes(), m.mtimeMillis()));
        writer.append(List.of(sources(more)), true);
        second.add(more);
        // Readers opened before the commit still read generation 1.
        assertEquals(1, old.generation());
        assertReaderSees(old, first);
        HpfReader newer = old.reopenIfChanged();
        assertNotNull(newer);
        try (newer) {
          assertEquals(2, newer.generation());
          assertReaderSees(newer, second);
          assertNull(newer.reopenIfChanged());
        }
        // Two newer generations: generation 1 is no longer kept.
        List<String> doomed = pickMembers(second, 5);
        writer.delete(doomed);
        Model third = second.copy();
        third.delete(doomed);
        assertArchiveIs(archive, third);
        try (HpfReader newest = old.reopenIfChanged()) {
          assertEquals(3, newest.generation());
          assertReaderSees(newest, third);
        }
      }
      int stale = 0;
      for (HpfReader reader : List.of(old, untouched)) {
        stale += readOrStale(reader, first);
      }
      // The reader that had opened nothing needs files that are gone now.
      assertTrue(stale > 0, "some read of generation 1 found its files gone "
          + Seeds.describe());
    } finally {
      old.close();
      untouched.close();
    }
  }

  /**
   * Reads every member and the listing of {@code model} (the reader's generation): exact bytes
   * or StaleGenerationException. Returns how many reads were stale.
   */
  private int readOrStale(HpfReader reader, Model model) {
    int stale = 0;
    List<String> wrong = new ArrayList<>();
    for (TestTree.Member m : model.members.values()) {
      try {
        if (!Arrays.equals(m.bytes(), reader.get(m.name()))) {
          wrong.add("get " + m.name() + ": other bytes");
        }
        if (!reader.exists(m.name())) {
          wrong.add("exists " + m.name() + ": false");
        }
        if (reader.stat(m.name()).mtimeMillis() != m.mtimeMillis()) {
          wrong.add("stat " + m.name() + ": other mtime");
        }
      } catch (StaleGenerationException e) {
        stale++;
      } catch (IOException | RuntimeException e) {
        wrong.add(m.name() + ": " + e);
      }
    }
    try (Stream<String> names = reader.list()) {
      if (!names.toList().equals(new ArrayList<>(model.members.keySet()))) {
        wrong.add("list: other names");
      }
    } catch (StaleGenerationException e) {
      stale++;
    } catch (IOException | RuntimeException e) {
      Throwable cause = e instanceof java.io.UncheckedIOException u ? u.getCause() : e;
      if (cause instanceof StaleGenerationException) {
        stale++;
      } else {
        wrong.add("list: " + e);
      }
    }
    if (!wrong.isEmpty()) {
      fail(wrong.size() + " wrong reads of an old generation, first: "
          + wrong.subList(0, Math.min(5, wrong.size())) + " " + Seeds.describe());
    }
    return stale;
  }

}
