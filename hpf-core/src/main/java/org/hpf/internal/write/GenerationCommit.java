package org.hpf.internal.write;

import com.google.common.collect.PeekingIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.apache.hadoop.io.WritableComparator;
import org.hpf.DuplicateNameException;
import org.hpf.HashCollisionException;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.EntryLocation;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.Manifest.Layer;
import org.hpf.internal.format.Manifest.NamesSegment;
import org.hpf.internal.format.Manifest.PartInfo;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.format.NameHasher;
import org.hpf.internal.format.NamesFileReader;
import org.hpf.internal.index.BucketOrder;
import org.hpf.internal.index.RecordStreams;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.write.spill.ExternalSorter;
import org.hpf.internal.write.spill.Scratch;

/**
 * Builds the next generation from a committed one (or from nothing, for a create) and a set of
 * changes, then commits it. Changes are spilled as they come (names in one external sort, index
 * records in another), so the heap does not grow with their number; the commit streams them back
 * sorted, writes the names segment, and builds or merges index layers one bucket at a time. Only
 * the buckets that changes touch are read and rewritten. The manifest's rename is the commit
 * point: everything it names is written and synced before it.
 *
 * <p>Record changes with {@link #put}, {@link #delete}, {@link #move} (thread-safe), parts with
 * {@link #addPart} and {@link #dropPart}, then call {@link #commit} once; close it in any case
 * to remove its scratch files.
 */
final class GenerationCommit implements AutoCloseable {
  /** Live-member counts of a part, updated by changes. */
  private static final class PartStats {
    final long length;
    long liveEntries;
    long liveBytes;

    PartStats(long length, long liveEntries, long liveBytes) {
      this.length = length;
      this.liveEntries = liveEntries;
      this.liveBytes = liveBytes;
    }
  }

  /**
   * What a commit wrote, for reports; {@code warnings}, what failed after the commit point (it
   * did not undo the commit).
   */
  record Result(Manifest manifest, DirectoryFile directory, int bucketsWritten,
      long indexBytesWritten, List<String> warnings) {}

  /** A generation written in full and not yet published. */
  private record Written(Manifest manifest, LayerBuilder layer) {}

  /**
   * Name entries spill as Op, Length, MTime, the entry's Part, Flags, Offset and EntryLength
   * (zeros for a deletion), its access id, then the name's UTF-8 bytes (sorted by those).
   */
  private static final int NAME_FIXED = 1 + 8 + 8 + EntryLocation.SIZE + 2;

  private final ArchiveStorage storage;
  private final ArchiveId id;
  private final Manifest base;
  private final long generation;
  private final int capacity;
  private final long blockSize;
  private final long partSize;
  private final NameHasher hasher;
  private final int hashAlgorithm;
  private final int threads;
  private final boolean checkNesting;
  private final ExternalSorter names;
  private final ExternalSorter records;
  private final TreeMap<Integer, PartStats> parts = new TreeMap<>();
  private long fileCount;
  private long originalBytes;
  private long storedBytes;
  private boolean mergeAllNames;
  private boolean mergeAllLayers;
  /** Set by {@link #put}: the new names must then be checked against each other and the old. */
  private boolean addsMembers;
  private boolean committed;
  /** Set by the first {@link #close}: a commit that published closes itself. */
  private boolean closed;
  private DirectoryFile lastDirectory;
  private final AccessClasses accesses;
  /** See {@link #reservePartIdsBelow}. */
  private int reservedPartIds;

  /**
   * @param base the committed generation to build on, or null for a create
   * @param hashAlgorithm the archive's hash algorithm (the base's, or a new archive's)
   */
  GenerationCommit(ArchiveStorage storage, ArchiveId id, Manifest base, int hashAlgorithm,
      int capacity, long blockSize, long partSize, WriterOptions options) throws IOException {
    this.storage = storage;
    this.hasher = options.hasher(hashAlgorithm);
    this.hashAlgorithm = hashAlgorithm;
    this.threads = options.settings().threads();
    this.checkNesting = options.checkNesting();
    this.id = id;
    this.base = base;
    this.generation = base == null ? 1 : base.generation() + 1;
    this.capacity = capacity;
    this.blockSize = blockSize;
    this.partSize = partSize;
    this.accesses = new AccessClasses(base);
    if (base != null) {
      fileCount = base.fileCount();
      originalBytes = base.originalBytes();
      storedBytes = base.storedBytes();
      for (PartInfo part : base.parts()) {
        parts.put(part.id(), new PartStats(part.length(), part.liveEntries(), part.liveBytes()));
      }
    }
    Scratch scratch = Scratch.in(options.settings().scratchDirectory());
    this.names = new ExternalSorter(scratch, "names", GenerationCommit::compareNames);
    ExternalSorter sorter = null;
    try {
      sorter = new ExternalSorter(scratch, "records",
          (a, aOff, aLen, b, bOff, bLen) -> BucketOrder.compare(a, aOff, b, bOff));
    } finally {
      if (sorter == null) {
        names.close();
      }
    }
    this.records = sorter;
  }

  long generation() {
    return generation;
  }

  /** The generation's access classes: the base's and those its new members introduce. */
  AccessClasses accesses() {
    return accesses;
  }

  /** A newly sealed part; its live counts grow as records pointing into it are put. */
  synchronized void addPart(int partId, long length) {
    parts.put(partId, new PartStats(length, 0, 0));
  }

  /** A sealed part whose live counts are already known (a merge lane counted them). */
  synchronized void addPart(PartInfo part) {
    parts.put(part.id(), new PartStats(part.length(), part.liveEntries(), part.liveBytes()));
  }

  /** Removes a part whose members all moved away or were deleted. */
  synchronized void dropPart(int partId) {
    PartStats stats = parts.remove(partId);
    if (stats != null && stats.liveEntries != 0) {
      throw new IllegalStateException("part " + partId + " still has " + stats.liveEntries
          + " live members");
    }
  }

  /**
   * Adds a member, or replaces {@code replaced} (its current record) when not null. With
   * {@code countLive} false the record's part is a merge lane's, which counts it itself.
   */
  void put(String name, IndexRecord record, long mtime, IndexRecord replaced, boolean countLive)
      throws IOException {
    spillName(NameEntry.OP_PRESENT, name, record.originalLength(), mtime, record);
    // A journaled record's time is beside it, not in it.
    records.add(record.withMtime(mtime).toScratchBytes());
    synchronized (this) {
      addsMembers = true;
      if (countLive) {
        live(record, +1);
      }
      fileCount++;
      originalBytes += record.originalLength();
      storedBytes += record.entryLength();
      if (replaced != null) {
        remove(replaced);
      }
    }
  }

  void put(String name, IndexRecord record, long mtime, IndexRecord replaced)
      throws IOException {
    put(name, record, mtime, replaced, true);
  }

  /** The record that deletes {@code name}. */
  IndexRecord tombstone(String name) {
    return IndexRecord.tombstone(hasher.hash(name));
  }

  /** Deletes a member whose current record is {@code existing}. */
  void delete(String name, IndexRecord existing) throws IOException {
    spillName(NameEntry.OP_DELETED, name, 0, 0, null);
    records.add(tombstone(name).toScratchBytes());
    synchronized (this) {
      remove(existing);
    }
  }

  /**
   * Points member {@code name} at a copy of its entry (compaction); its names entry gets the new
   * location, counts do not change. The copy's part counts its live entries itself (it is added
   * with {@link #addPart(PartInfo)}).
   */
  void move(String name, IndexRecord from, IndexRecord to) throws IOException {
    spillName(NameEntry.OP_PRESENT, name, to.originalLength(), to.mtimeMillis(), to);
    records.add(to.toScratchBytes());
    synchronized (this) {
      live(from, -1);
      storedBytes += to.entryLength() - from.entryLength();
    }
  }

  /** Merge every index layer into the base and every names segment into one (compaction). */
  void mergeAll() {
    this.mergeAllNames = true;
    this.mergeAllLayers = true;
  }

  private void spillName(int op, String name, long length, long mtime, IndexRecord record)
      throws IOException {
    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
    ByteBuffer entry = ByteBuffer.allocate(NAME_FIXED + utf8.length).put((byte) op)
        .putLong(length).putLong(mtime);
    if (record != null) {
      EntryLocation.of(record).writeTo(entry);
      entry.putShort((short) record.access());
    } else {
      entry.position(NAME_FIXED);
    }
    names.add(entry.put(utf8).array());
  }

  private static int compareNames(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    return WritableComparator.compareBytes(a, aOff + NAME_FIXED, aLen - NAME_FIXED,
        b, bOff + NAME_FIXED, bLen - NAME_FIXED);
  }

  private static NameEntry decodeName(byte[] entry) {
    ByteBuffer buf = ByteBuffer.wrap(entry);
    int op = buf.get();
    long length = buf.getLong();
    long mtime = buf.getLong();
    EntryLocation location = EntryLocation.read(buf);
    int access = buf.getShort() & 0xFFFF;
    String name = new String(entry, NAME_FIXED, entry.length - NAME_FIXED,
        StandardCharsets.UTF_8);
    return op == NameEntry.OP_DELETED ? NameEntry.deletion(name)
        : NameEntry.present(name, length, mtime, location, access);
  }

  private void remove(IndexRecord existing) {
    live(existing, -1);
    fileCount--;
    originalBytes -= existing.originalLength();
    storedBytes -= existing.entryLength();
  }

  private void live(IndexRecord record, int sign) {
    PartStats stats = parts.get(record.part());
    if (stats == null) {
      throw new IllegalStateException("record points to part " + record.part()
          + ", which this generation does not have");
    }
    stats.liveEntries += sign;
    stats.liveBytes += sign * record.entryLength();
  }

  /**
   * Writes the names segment, the index layer this commit needs and the manifest, then
   * publishes the manifest.
   *
   * <p>The commit's records (tombstones for deletions) become a new index layer on top of the
   * older ones, written with fingerprints so that lookups pass it in memory; so an append costs
   * what it adds, not what the archive holds. While the new records, with the layers already
   * folded into them, number at least a quarter of the layer below, that layer is folded into
   * them (newest wins), and once only the base is left below, they are merged into the base by
   * rewriting just the base buckets that receive records, with the splits the directory needs.
   * Each record is rewritten O(log n) times.
   */
  Result commit(ExecutorService pool) throws IOException {
    return commit(pool, PhaseClock.start());
  }

  /**
   * As {@link #commit(ExecutorService)}; {@code clock} takes the time of the names file, the
   * index, the publication and the removal of the scratch files, each its {@link Phase}.
   */
  Result commit(ExecutorService pool, PhaseClock clock) throws IOException {
    if (committed) {
      throw new IllegalStateException("generation " + generation + " was already committed");
    }
    committed = true;
    Written written;
    List<NamesSegment> segments;
    try (PhaseClock.Section s = clock.in(Phase.NAMES)) {
      segments = writeNames();
    }
    try (PhaseClock.Section s = clock.in(Phase.INDEX)) {
      written = writeIndex(pool, segments);
    } catch (RecordStreams.Collision e) {
      throw namedCollision(e.getCause());
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    List<String> warnings;
    try (PhaseClock.Section s = clock.in(Phase.COMMIT)) {
      warnings = new ArrayList<>(publish(storage, written.manifest(), base));
    }
    // The commit point has passed: nothing from here on may fail the commit.
    try (PhaseClock.Section s = clock.in(Phase.CLEANUP)) {
      close();
    } catch (IOException | RuntimeException e) {
      warnings.add("generation " + generation + " committed, but the writer's scratch files "
          + "could not be removed: " + e);
    }
    LayerBuilder layer = written.layer();
    return layer == null ? new Result(written.manifest(), null, 0, 0, warnings)
        : new Result(written.manifest(), lastDirectory, layer.bucketsWritten(),
            layer.indexBytesWritten(), warnings);
  }

  /** Writes the index layer this commit needs; returns the manifest that names it all. */
  private Written writeIndex(ExecutorService pool, List<NamesSegment> segments)
      throws IOException {
    long pendingCount = records.count();
    List<Layer> layers = new ArrayList<>();
    List<DirectoryFile> directories = new ArrayList<>(
        base == null ? List.of() : base.readDirectories(storage));
    for (int i = 0; i < directories.size(); i++) {
      // The new manifest carries every layer's directory, also those of a version 1 base.
      layers.add(Layer.inline(directories.get(i), base.layers().get(i).records()));
    }
    try (ExternalSorter.Sorted sorted = records.sort()) {
      PeekingIterator<IndexRecord> pending =
          RecordStreams.distinct(RecordStreams.decode(sorted, "the writer's scratch files"));
      while (layers.size() > 1 && (mergeAllLayers
          || pendingCount * 4 >= layers.get(layers.size() - 1).records())) {
        pending = RecordStreams.newestWins(RecordStreams.layer(storage, id,
            directories.get(directories.size() - 1)), pending, false);
        pendingCount += layers.get(layers.size() - 1).records();
        layers.remove(layers.size() - 1);
        directories.remove(directories.size() - 1);
      }
      LayerBuilder layer;
      if (layers.isEmpty()) {
        layer = newLayer(false, pool);
        buildAll(layer, RecordStreams.newestWins(RecordStreams.empty(), pending, true));
        layers.add(finishLayer(layer));
      } else if (layers.size() == 1
          && (mergeAllLayers || pendingCount * 4 >= layers.get(0).records())) {
        layer = newLayer(false, pool);
        mergeIntoBase(layer, directories.get(0), pending);
        layers.set(0, finishLayer(layer));
      } else if (pending.hasNext()) {
        layer = newLayer(true, pool);
        buildAll(layer, pending);
        layers.add(finishLayer(layer));
      } else {
        layer = null;
      }
      List<PartInfo> partList = new ArrayList<>();
      synchronized (this) {
        parts.forEach((partId, stats) -> partList.add(
            new PartInfo(partId, stats.length, stats.liveEntries, stats.liveBytes)));
      }
      int floor = Math.max(Math.max(base == null ? 0 : base.partIdFloor(),
          Manifest.idsAbove(partList)), reservedPartIds);
      Manifest manifest = new Manifest(id, generation, System.currentTimeMillis(),
          hashAlgorithm, fileCount, originalBytes, storedBytes, capacity, blockSize,
          partSize, layers, segments, partList, accesses.all(), floor, Manifest.newCommitId(),
          base == null ? 0 : base.commitId());
      return new Written(manifest, layer);
    }
  }

  private LayerBuilder newLayer(boolean fingerprints, ExecutorService pool) {
    return new LayerBuilder(storage, id, generation, capacity, blockSize, fingerprints, pool,
        threads);
  }

  private static void buildAll(LayerBuilder layer, PeekingIterator<IndexRecord> records)
      throws IOException {
    try {
      layer.build(0, 0, records);
    } catch (IOException | RuntimeException | Error e) {
      layer.abandon();
      throw e;
    }
  }

  /**
   * Merges records into the base layer: base buckets that receive records are read and rebuilt
   * (split as needed) from their records and the new ones; tombstones remove what they name;
   * the other buckets are kept as they are.
   */
  private void mergeIntoBase(LayerBuilder layer, DirectoryFile baseLayer,
      PeekingIterator<IndexRecord> pending) throws IOException {
    int[] prefixes = RecordStreams.prefixes(baseLayer);
    List<Integer> order = new ArrayList<>();
    for (int b = 0; b < prefixes.length; b++) {
      order.add(b);
    }
    order.sort((x, y) -> BucketOrder.compareBuckets(prefixes[x], prefixes[y]));
    try {
      for (int b : order) {
        DirectoryFile.BucketRef ref = baseLayer.buckets().get(b);
        int prefix = prefixes[b];
        if (!pending.hasNext()
            || !BucketOrder.inBucket(pending.peek().hash(), prefix, ref.localDepth())) {
          layer.keep(prefix, ref);
          continue;
        }
        List<IndexRecord> stored =
            org.hpf.internal.index.IndexFileReader.readRecords(storage, id, ref);
        stored.sort((x, y) -> BucketOrder.compare(x.hash(), y.hash()));
        PeekingIterator<IndexRecord> merged = RecordStreams.newestWins(
            com.google.common.collect.Iterators.peekingIterator(stored.iterator()),
            inBucket(pending, prefix, ref.localDepth()), true);
        layer.build(prefix, ref.localDepth(), merged);
        if (merged.hasNext()) {
          throw new IllegalStateException("records left over after rebuilding bucket " + b);
        }
      }
      if (pending.hasNext()) {
        throw new IllegalStateException("record " + pending.peek().hash() + " fits no bucket");
      }
    } catch (IOException | RuntimeException | Error e) {
      layer.abandon();
      throw e;
    }
  }

  /** The head of {@code records} that belongs to the bucket (prefix, depth). */
  private static PeekingIterator<IndexRecord> inBucket(PeekingIterator<IndexRecord> records,
      int prefix, int depth) {
    return com.google.common.collect.Iterators.peekingIterator(new Iterator<IndexRecord>() {
      @Override
      public boolean hasNext() {
        return records.hasNext() && BucketOrder.inBucket(records.peek().hash(), prefix, depth);
      }

      @Override
      public IndexRecord next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return records.next();
      }
    });
  }

  /** The layer's directory goes into the manifest. */
  private Layer finishLayer(LayerBuilder layer) throws IOException {
    DirectoryFile directory = layer.finish();
    lastDirectory = directory;
    return Layer.inline(directory, layer.records());
  }

  /** Writes this generation's names segment and merges segments as the policy says. */
  private List<NamesSegment> writeNames() throws IOException {
    List<NamesSegment> segments = new ArrayList<>(base == null ? List.of() : base.namesSegments());
    NamesSegments writer = new NamesSegments(storage, id, generation);
    if (names.count() > 0 || base == null) {
      long expected = names.count();
      try (ExternalSorter.Sorted sorted = names.sort();
          NestingCheck checked = addsMembers && checkNesting
              ? new NestingCheck(storage, id, base, distinct(sorted)) : null) {
        segments.add(writer.write(checked != null ? checked : distinct(sorted), expected));
      } catch (DuplicateName e) {
        throw new DuplicateNameException(e.name);
      } catch (NestingCheck.Failure e) {
        throw e.conflict;
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
    }
    return writer.compact(segments, mergeAllNames);
  }

  /** The sorted names, failing on a name given twice. */
  private static Iterator<NameEntry> distinct(ExternalSorter.Sorted sorted) {
    return new Iterator<NameEntry>() {
      private NameEntry previous;

      @Override
      public boolean hasNext() {
        return sorted.hasNext();
      }

      @Override
      public NameEntry next() {
        NameEntry entry = decodeName(sorted.next());
        if (previous != null && previous.name().equals(entry.name())) {
          throw new DuplicateName(entry.name());
        }
        previous = entry;
        return entry;
      }
    };
  }

  /** Carries a duplicate name out of the names iterator. */
  private static final class DuplicateName extends RuntimeException {
    final String name;

    DuplicateName(String name) {
      super(null, null, false, false);
      this.name = name;
    }
  }

  /** The collision, with the two names found in the names segment this commit wrote. */
  private HashCollisionException namedCollision(HashCollisionException collision) {
    String hex = collision.getMessage().substring(collision.getMessage().lastIndexOf(' ') + 1);
    List<String> colliding = new ArrayList<>();
    String segment = ArchiveLayout.names(generation, 0);
    try (NamesFileReader reader = new NamesFileReader(storage.open(segment),
        storage.location(segment), id)) {
      while (reader.hasNext() && colliding.size() < 2) {
        String name = reader.next().name();
        if (hasher.hash(name).toString().equals(hex)) {
          colliding.add(name);
        }
      }
    } catch (IOException | RuntimeException e) {
      return collision;
    }
    if (colliding.size() < 2) {
      return collision;
    }
    return new HashCollisionException("names '" + colliding.get(0) + "' and '"
        + colliding.get(1) + "' have the same 128-bit hash " + hex);
  }

  /**
   * Raises the generation's part id floor to {@code limit}: ids below it were handed out to
   * writers (a job's tasks) whose parts this generation does not take, and may never be
   * committed later.
   */
  void reservePartIdsBelow(int limit) {
    reservedPartIds = Math.max(reservedPartIds, limit);
  }

  /** Removes the scratch files (done by a commit that published; a no-op after it). */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      names.close();
    } finally {
      records.close();
    }
  }

  /**
   * Publishes a generation built on {@code base} (null for a create): write the manifest under a
   * temporary name, then rename it (see {@link ManifestRename} for a rename that throws); on a
   * store without an atomic rename, create it under its name ({@link ConditionalPublish}).
   * Returns normally once the generation is committed, with what went wrong without preventing
   * it.
   */
  static List<String> publish(ArchiveStorage storage, Manifest manifest, Manifest base)
      throws IOException {
    if (storage.profile() == org.hpf.internal.io.StorageProfile.CONDITIONAL_CREATE) {
      return ConditionalPublish.run(storage, manifest, base);
    }
    String temporary = ArchiveLayout.temporaryManifest(manifest.generation(),
        UUID.randomUUID().toString());
    byte[] bytes = manifest.toBytes();
    writeSmallFile(storage, temporary, bytes);
    return ManifestRename.run(storage, temporary, manifest.generation(), bytes);
  }

  static void writeSmallFile(ArchiveStorage storage, String name, byte[] bytes)
      throws IOException {
    try (ArchiveOutput out = storage.create(name, 0)) {
      out.stream().write(bytes);
      out.sync();
    }
  }

  static <T> T get(Future<T> future) throws IOException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IOException(e.getCause());
    }
  }
}
